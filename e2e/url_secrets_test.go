package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Secrets a URL carries: user info, query values, a fragment; and a query
// value in a link of the page, which snapshots show.
const (
	urlCanaryUser     = "canaryuser"
	urlCanaryPassword = "canarypass"
	urlCanaryQuery    = "CANARYQUERY"
	urlCanaryFragment = "CANARYFRAG"
	urlCanaryLink     = "CANARYLINK"
)

// An agent opens http://user:pass@127.0.0.1:PORT/page?token=…#…, reads it,
// navigates to a page without a <title> (Chromium 156 then titles the tab
// with its URL, query included), waits, and finishes, every mutation with a
// key and sent twice. No result carries the user info (Chromium 156 keeps
// it in chrome.tabs' tab URL); the agent sees its URLs otherwise whole; a
// replay answers the record the host kept (URLs cut to their origin, no
// title, no snapshot); and no file under the state directory (state.db and
// its WAL, audit.jsonl, host.log, the adapter's files) holds any of the
// secrets. Before issue 9 results echoed user:pass@ and state.db kept every
// URL whole.
func TestURLSecretsStayOutOfResultsAndState(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{
		"/page":  `<!doctype html><title>Secret Page</title><a href="/plain?session=` + urlCanaryLink + `">Next</a>`,
		"/plain": `<!doctype html><p>a page without a title</p>`,
	})
	withCreds := strings.Replace(base, "http://", "http://"+urlCanaryUser+":"+urlCanaryPassword+"@", 1)
	s := e.MCP(t)
	var results []map[string]any
	keep := func(res map[string]any) map[string]any { results = append(results, res); return res }

	open := map[string]any{"url": withCreds + "/page?token=" + urlCanaryQuery + "#" + urlCanaryFragment, "idempotency_key": "url-secrets-open"}
	opened := keep(ok(t, s, protocol.MethodOpen, open))
	if got, want := tabOf(t, opened)["url"], base+"/page?token="+urlCanaryQuery+"#"+urlCanaryFragment; got != want {
		t.Errorf("browser_open answered url %v, want %s (the URL without its user info)", got, want)
	}
	tab := handleOf(t, opened)
	replayed := keep(ok(t, s, protocol.MethodOpen, open))
	if r := tabOf(t, replayed); replayed["replay"] != true || r["tab"] != tab || r["url"] != base || r["title"] != "" || r["page_revision"] != tabOf(t, opened)["page_revision"] {
		t.Errorf("the replayed open is %v, want the same tab, url %s (the origin) and no title", replayed, base)
	}
	keep(ok(t, s, protocol.MethodTabs, nil))
	text, rev, snapRes := snap(t, s, tab, nil)
	keep(snapRes)
	if !strings.Contains(text, urlCanaryLink) {
		t.Fatalf("the snapshot does not show the page's link:\n%s", text)
	}

	act := map[string]any{"tab": tab, "expected_page_revision": rev, "snapshot_after": true, "idempotency_key": "url-secrets-act",
		"actions": []any{step("navigate", "url", withCreds+"/plain?token="+urlCanaryQuery)}}
	acted := keep(ok(t, s, protocol.MethodAct, act))
	if got, want := acted["url"], base+"/plain?token="+urlCanaryQuery; got != want {
		t.Errorf("browser_act answered url %v, want %s", got, want)
	}
	if title, _ := acted["title"].(string); !strings.Contains(title, urlCanaryQuery) {
		// The case the replay record leaves titles out for.
		t.Logf("Chromium did not title the page with its URL (title %q)", title)
	}
	actReplayed := keep(ok(t, s, protocol.MethodAct, act))
	if actReplayed["replay"] != true || actReplayed["url"] != base || actReplayed["title"] != "" || actReplayed["snapshot"] != nil {
		t.Errorf("the replayed act is %v, want url %s, no title and no snapshot", actReplayed, base)
	}
	keep(ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "url", "url": "*/plain?token=" + urlCanaryQuery}))
	finish := map[string]any{"close_tabs": true, "idempotency_key": "url-secrets-finish"}
	keep(ok(t, s, protocol.MethodFinish, finish))
	keep(ok(t, s, protocol.MethodFinish, finish))

	for _, res := range results {
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), urlCanaryUser) || strings.Contains(string(b), urlCanaryPassword) {
			t.Errorf("a result carries the URL's user info: %s", b)
		}
	}
	noSecretInState(t, e, "", urlCanaryUser, urlCanaryPassword, urlCanaryQuery, urlCanaryFragment, urlCanaryLink)
}

// An agent waits for the URLs it was shown. Chromium 156 keeps the user
// info in chrome.tabs' URL of a tab opened at http://user:pass@host/ (and
// of the page a link there leads to), while every URL the agent sees has
// it cut (internal/host/userinfo.go): an exact until-url wait, or a wait
// step, on the URL browser_open answered never held. URLs are compared
// without their user info on both sides.
func TestURLWaitsMatchTheURLsAgentsSee(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{
		"/a": `<!doctype html><title>A</title><a href="/b">To B</a>`,
		"/b": `<!doctype html><title>B</title><p>b</p>`,
	})
	withCreds := strings.Replace(base, "http://", "http://"+urlCanaryUser+":"+urlCanaryPassword+"@", 1)
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": withCreds + "/a"})
	tab := handleOf(t, opened)
	shown, _ := tabOf(t, opened)["url"].(string)
	if shown != base+"/a" {
		t.Fatalf("browser_open answered url %q, want %s", shown, base+"/a")
	}
	waited := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "url", "url": shown, "timeout_ms": 3000})
	if waited["satisfied"] != true {
		t.Errorf("until url %s (the URL the agent was shown) did not hold on the page itself: %v", shown, waited)
	}
	text, rev, _ := snap(t, s, tab, nil)
	acted := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "To B")),
		step("wait", "wait", map[string]any{"until": "url", "url": base + "/b", "timeout_ms": 5000}))
	if st := stepsOf(acted); len(st) != 2 || st[1]["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Errorf("the wait step for %s after the link: %v", base+"/b", acted)
	}
	waited = ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "url", "url": base + "/b", "timeout_ms": 3000})
	if waited["satisfied"] != true || waited["url"] != base+"/b" {
		t.Errorf("until url %s did not hold after the link: %v", base+"/b", waited)
	}
	// The user info in the pattern is cut as well: the URL the agent typed matches too.
	waited = ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "url", "url": withCreds + "/b", "timeout_ms": 3000})
	if waited["satisfied"] != true {
		t.Errorf("until url with the user info did not hold: %v", waited)
	}
	if b, _ := json.Marshal(waited); strings.Contains(string(b), urlCanaryPassword) {
		t.Errorf("a result carries the URL's user info: %s", b)
	}
}
