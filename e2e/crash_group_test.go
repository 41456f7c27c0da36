package e2e

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Each burst of opens kills the host until openCrashWindowHits kills have
// interrupted an open after the host recorded its key as started (the
// window below: Chrome may have made and grouped the tab), at most
// openCrashMaxKills times. The report counted 5 orphaned tabs; most
// kills land in the window.
const (
	openCrashWindowHits = 5
	openCrashMaxKills   = 15
)

// openCrashMaxDelay bounds how far into a burst the kill lands: a few
// opens of the burst.
const openCrashMaxDelay = 400 * time.Millisecond

// openPageDelay is how long each page of the burst takes to answer. The
// extension makes and groups the tab, records it, and then waits for the
// load before it answers the host, so a kill during that wait leaves a tab
// Chrome has in the task's group and the host never recorded: the window
// this test aims at.
const openPageDelay = 150 * time.Millisecond

// The host is SIGKILLed in the middle of bursts of concurrent browser_open
// calls of one task. After each restart's reconciliation every tab in the
// task's group is the task's (browser_tabs lists it) or out of the group;
// no interrupted open is replayed (a started key answers unknown); and
// browser_finish leaves no group of the task behind: with close_tabs
// nothing the task opened stays open, without it every tab is ungrouped
// and left to the user.
func TestHostCrashDuringOpenBurstLeavesNoGroup(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d (the kill delays)", seed)
	rng := rand.New(rand.NewPCG(seed, seed>>32))

	e := harness.Start(t)
	base := e.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(openPageDelay)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, page(r.URL.Path))
	}))
	s := e.MCP(t)
	db := openStateDB(t, e)

	for _, closeTabs := range []bool{true, false} {
		b := &openBurst{s: s, prefix: fmt.Sprintf("%s/close-%v/", base, closeTabs)}
		first := b.url()
		opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": first})
		label, _ := taskOf(t, opened)["label"].(string)
		if label == "" {
			t.Fatalf("no task label in %v", opened)
		}
		// The user drags a tab of their own into the task's group: it is
		// never adopted, and never closed.
		userURL := fmt.Sprintf("%s/user-%v", base, closeTabs)
		var user harness.Tab
		e.Eval(t, fmt.Sprintf(`chrome.tabs.create({url: %q, active: false})`, userURL), &user)
		e.Eval(t, fmt.Sprintf(`chrome.tabs.group({groupId: %d, tabIds: [%d]})`, chromeTabByURL(t, e, first).GroupID, user.ID), nil)
		for round := 1; round <= openCrashMaxKills && b.count(stateStarted) < openCrashWindowHits; round++ {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() { b.burst(round, stop) })
			}
			time.Sleep(time.Duration(rng.Int64N(int64(openCrashMaxDelay) + 1)))
			e.KillHost(t)
			b.kills++
			close(stop)
			wg.Wait()
			b.resend(t, db)
		}
		b.logSummary(t)
		if b.count(stateStarted) == 0 {
			t.Fatalf("no kill of %d interrupted an open the host had started: the test proves nothing", b.kills)
		}

		owned := tabsInTaskGroups(t, e, s, b, label)
		if owned == 0 {
			t.Fatalf("task %s owns no tab of the burst", label)
		}
		if u := chromeTabByURL(t, e, userURL); u.GroupID != -1 {
			t.Errorf("the user's tab dragged into the task's group is still in group %d after reconciliation, want released", u.GroupID)
		}
		ok(t, s, protocol.MethodFinish, map[string]any{"close_tabs": closeTabs})
		chromeTabByURL(t, e, userURL) // the user's tab stays open
		for _, g := range e.ChromeGroups(t) {
			if g.Title == label {
				t.Errorf("close_tabs %v: after browser_finish Chrome still has group %d titled %q", closeTabs, g.ID, label)
			}
		}
		left := 0
		for _, tab := range b.chromeTabs(t, e) {
			left++
			if closeTabs {
				t.Errorf("browser_finish {close_tabs: true} left the task's tab %d open at %s (group %d)", tab.ID, tab.URL, tab.GroupID)
			} else if tab.GroupID != -1 {
				t.Errorf("browser_finish {close_tabs: false} left the task's tab %d in group %d", tab.ID, tab.GroupID)
			}
		}
		if !closeTabs && left < owned {
			t.Errorf("browser_finish {close_tabs: false} closed tabs: %d of the task's %d are left", left, owned)
		}
	}
	db.Close()
	integrityOK(t, e)
}

// tabsInTaskGroups checks that every tab Chrome shows in a group titled
// with the task's label is one browser_tabs lists, and that every tab of
// the burst the task does not list is out of every group (released to the
// user); it returns how many tabs the task lists.
func tabsInTaskGroups(t *testing.T, e *harness.Env, s *mcp.ClientSession, b *openBurst, label string) int {
	t.Helper()
	listedURLs := map[string]bool{}
	list := listed(t, ok(t, s, protocol.MethodTabs, nil))
	for _, tab := range list {
		listedURLs[fmt.Sprint(tab["url"])] = true
	}
	taskGroups := map[int]bool{}
	for _, g := range e.ChromeGroups(t) {
		if g.Title == label {
			taskGroups[g.ID] = true
		}
	}
	orphans := 0
	for _, tab := range e.ChromeTabs(t) {
		if taskGroups[tab.GroupID] && !listedURLs[tab.URL] {
			orphans++
			t.Errorf("tab %d at %s sits in the task's group %d, but browser_tabs does not list it", tab.ID, tab.URL, tab.GroupID)
		}
	}
	for _, tab := range b.chromeTabs(t, e) {
		if !listedURLs[tab.URL] && tab.GroupID != -1 && !taskGroups[tab.GroupID] {
			t.Errorf("tab %d at %s is in group %d, neither the task's nor released", tab.ID, tab.URL, tab.GroupID)
		}
	}
	t.Logf("task %s lists %d tabs; %d tabs in its groups are not listed", label, len(list), orphans)
	return len(list)
}

// openBurst is one task's burst of opens, each to a page of its own.
type openBurst struct {
	s      *mcp.ClientSession
	prefix string
	n      atomic.Int64
	kills  int

	mu    sync.Mutex
	calls []*openCall // this round's interrupted calls wait here for the resend
	all   []*openCall
}

// url is a fresh page under the burst's prefix.
func (b *openBurst) url() string { return fmt.Sprintf("%s%d", b.prefix, b.n.Add(1)) }

// chromeTabs are Chrome's tabs at the burst's pages.
func (b *openBurst) chromeTabs(t *testing.T, e *harness.Env) []harness.Tab {
	var out []harness.Tab
	for _, tab := range e.ChromeTabs(t) {
		if strings.HasPrefix(tab.URL, b.prefix) || strings.HasPrefix(tab.PendingURL, b.prefix) {
			out = append(out, tab)
		}
	}
	return out
}

// burst opens pages, each under a fresh key, until stop is closed or an
// open does not succeed. It runs on its own goroutine, so it records what
// happened and never fails the test itself.
func (b *openBurst) burst(round int, stop <-chan struct{}) {
	untilStopped(stop, func(key string) bool {
		c := &openCall{round: round, key: key, args: map[string]any{"url": b.url(), "idempotency_key": key}}
		c.first = classifyOpen(callTool(b.s, protocol.MethodOpen, c.args))
		c.final = c.first
		b.mu.Lock()
		b.calls = append(b.calls, c)
		b.all = append(b.all, c)
		b.mu.Unlock()
		return c.first.kind == kindRan
	})
}

// resend sends this round's interrupted opens again, with the same key and
// arguments, and checks each answer against the key's durable record (the
// rule at resendInterrupted: a started open answers unknown and is never
// replayed). Every other answer must be a fresh, successful open.
func (b *openBurst) resend(t *testing.T, db *sql.DB) {
	t.Helper()
	b.mu.Lock()
	calls := b.calls
	b.calls = nil
	b.mu.Unlock()
	for _, c := range calls {
		if c.first.replay {
			t.Errorf("%s: the first call with a fresh key answered a replay: %v", c, c.first.res)
		}
		switch c.first.kind {
		case kindRan:
			continue
		case kindInterrupted:
		default:
			t.Errorf("%s: %s", c, c.first)
			continue
		}
		rec := idempotencyRecord(t, db, protocol.MethodOpen, c.key)
		c.rec = &rec
		c.final = classifyOpen(callTool(b.s, protocol.MethodOpen, c.args))
		checkAnswer(t, c, rec, c.final)
	}
}

// count is how many interrupted opens found their key's record in state
// ("" for none) when they were sent again.
func (b *openBurst) count(state string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, c := range b.all {
		if c.rec != nil && c.rec.state == state {
			n++
		}
	}
	return n
}

// logSummary says how the burst's opens ended.
func (b *openBurst) logSummary(t *testing.T) {
	t.Logf("%d kills, %d opens; interrupted ones, by their record when sent again: none %d (ran now), started %d (answered unknown), completed %d (replayed)",
		b.kills, len(b.all), b.count(""), b.count(stateStarted), b.count(stateCompleted))
}

// openCall is one browser_open of a burst.
type openCall struct {
	round int
	key   string
	args  map[string]any
	first verdict
	rec   *idemRecord // the key's record when the interrupted call was sent again
	final verdict
}

func (c *openCall) String() string {
	return fmt.Sprintf("open of %v (round %d, key %s)", c.args["url"], c.round, c.key)
}

// classifyOpen classifies an answer to browser_open like a batch's
// (classify): a success is a result with its tab.
func classifyOpen(res map[string]any, isErr bool, err error) verdict {
	v := classify(res, isErr, err)
	if err == nil && !isErr && res["tab"] != nil {
		v.kind, v.err = kindRan, nil
	}
	return v
}
