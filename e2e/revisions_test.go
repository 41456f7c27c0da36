package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// revisionPage counts its Count clicks on the server (a synchronous
// request, so the count is in before the click's receipt), leaves for
// /next through a link, and changes its URL in place with pushState.
const revisionPage = `<!doctype html><title>%s</title>
<button onclick="const x = new XMLHttpRequest(); x.open('POST', '/hit', false); x.send()">Count</button>
<a href="/next">Next page</a>
<button onclick="history.pushState({}, '', '?pushed')">Push</button>`

// clickCounter serves revisionPage at / and /next and counts /hit.
type clickCounter struct {
	mu   sync.Mutex
	hits int
}

func (c *clickCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/", "/next":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprintf(w, revisionPage, "Page "+r.URL.Path)
	case "/hit":
		c.mu.Lock()
		c.hits++
		c.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func (c *clickCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// openCounted opens revisionPage in a task tab.
func openCounted(t *testing.T) (*harness.Env, *mcp.ClientSession, *clickCounter, string) {
	t.Helper()
	e := harness.Start(t)
	counter := &clickCounter{}
	base := e.Serve(counter)
	s := e.MCP(t)
	return e, s, counter, handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
}

// hostRefusesRevision sends a Count click at revision rev and checks that
// the HOST refused it as stale_revision, not_started, with nothing run:
// the page counted no click, and no idempotency record was made (the host
// durably records a batch's key before it sends the batch to the extension,
// spec 000, so an extension's refusal would leave one), and audit records
// the refusal's code.
func hostRefusesRevision(t *testing.T, e *harness.Env, s *mcp.ClientSession, counter *clickCounter, tab string, rev int64, count string) {
	t.Helper()
	hits, keys := counter.count(), actRecords(t, e)
	res := refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", count)}}, protocol.CodeStaleRevision)
	if res["outcome"] != string(protocol.OutcomeNotStarted) || res["steps"] != nil {
		t.Fatalf("revision %d: %v, want not_started without receipts", rev, res)
	}
	if n := counter.count(); n != hits {
		t.Errorf("revision %d: the page counted %d clicks, had %d", rev, n, hits)
	}
	if n := actRecords(t, e); n != keys {
		t.Errorf("revision %d: %d browser_act idempotency records, had %d: the batch went past the host's check", rev, n, keys)
	}
	var last auditRecord
	for _, r := range auditRecords(t, e) {
		if r.Method == protocol.MethodAct {
			last = r
		}
	}
	if last.ErrorCode != protocol.CodeStaleRevision {
		t.Errorf("revision %d: the last browser_act audit record has code %q, want stale_revision", rev, last.ErrorCode)
	}
}

// actRecords counts the browser_act idempotency records in STATE/state.db.
func actRecords(t *testing.T, e *harness.Env) int {
	t.Helper()
	db := openStateDB(t, e)
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM idempotency WHERE method = ?`, protocol.MethodAct).Scan(&n); err != nil {
		t.Fatalf("counting idempotency records: %v", err)
	}
	return n
}

// Spec 001: "The host and extension reject actions when ownership,
// document revision, or ref epoch no longer matches." After a link took
// the tab to another page, the revision of the page it left is refused by
// the host itself, before anything reaches the extension; so is a revision
// the tab never had. The current one runs.
func TestHostRefusesTheRevisionANavigationLeft(t *testing.T) {
	e, s, counter, tab := openCounted(t)
	text, rev, _ := snap(t, s, tab, nil)

	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Next page")))
	if st := stepsOf(res); st[0]["navigation"] != string(protocol.NavigationCommitted) || revisionOf(res) <= rev {
		t.Fatalf("the link did not navigate: %v", res)
	}
	next, now, _ := snap(t, s, tab, nil)
	count := refOf(t, next, "button", "Count")

	hostRefusesRevision(t, e, s, counter, tab, rev, count)
	hostRefusesRevision(t, e, s, counter, tab, now+1, count)

	act(t, s, tab, now, step("click", "ref", count))
	if n := counter.count(); n != 1 {
		t.Fatalf("the click at the current revision counted %d, want 1", n)
	}
}

// DESIGN.md "Page revision and refs": a same-document navigation
// (history.pushState) advances the revision too, and the host refuses the
// one before it; the old refs keep working under the new revision.
func TestHostRefusesTheRevisionBeforePushState(t *testing.T) {
	e, s, counter, tab := openCounted(t)
	text, rev, _ := snap(t, s, tab, nil)
	count := refOf(t, text, "button", "Count")

	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Push")))
	now := revisionOf(res)
	if st := stepsOf(res); st[0]["navigation"] != string(protocol.NavigationSameDocument) || now <= rev {
		t.Fatalf("pushState did not advance the revision: %v", res)
	}
	if u := ok(t, s, protocol.MethodTabs, map[string]any{"tab": tab}); !strings.Contains(fmt.Sprint(u), "?pushed") {
		t.Fatalf("the tab's URL did not change: %v", u)
	}

	hostRefusesRevision(t, e, s, counter, tab, rev, count)

	act(t, s, tab, now, step("click", "ref", count))
	if n := counter.count(); n != 1 {
		t.Fatalf("the old ref at the new revision counted %d clicks, want 1", n)
	}
}
