package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// originSite serves the same pages under two loopback host names: the
// test's policies treat http://127.0.0.1 (base) and http://localhost
// (other) differently. It counts every request by host and path, so a test
// can prove a refused origin never saw one.
type originSite struct {
	base, other string
	// blocker is appended to the start page (set before the first request).
	blocker string
	mu      sync.Mutex
	hits    map[string]int
}

func serveOriginSite(t *testing.T, e *harness.Env) *originSite {
	t.Helper()
	s := &originSite{hits: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Host[:strings.IndexByte(r.Host, ':')]+r.URL.Path]++
		s.mu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/":
			fmt.Fprintf(w, `<!doctype html><title>Start</title><h1>Start</h1>
<a href="%[1]s/landing">Denied link</a>
<a href="/redir">Redirecting link</a>
<a href="/second">Second page</a>
<button onclick="location.href = '%[1]s/script'">Script navigation</button>
<button onclick="window.open('%[1]s/popup')">Denied popup</button>
<button onclick="setTimeout(() => { document.title = 'Leaving'; location.href = '%[1]s/late'; }, 500)">Later navigation</button>
<form action="%[1]s/form" method="post"><input type="hidden" name="action" value="save"><button>Denied form</button></form>
<iframe title="Framed" src="%[1]s/frame" width="300" height="80"></iframe>%[2]s`, s.other, s.blocker)
		case "/script":
			// Slow enough that a stop can arrive before the answer.
			time.Sleep(300 * time.Millisecond)
			fmt.Fprint(w, `<!doctype html><title>script</title><h1>script</h1>`)
		case "/redir":
			http.Redirect(w, r, s.other+"/landing", http.StatusFound)
		case "/frame":
			fmt.Fprint(w, `<!doctype html><title>Frame</title><p>Inside the frame</p>`)
		default:
			fmt.Fprintf(w, `<!doctype html><title>%s</title><h1>%s</h1><a href="/">Start page</a>`, r.URL.Path, r.URL.Path)
		}
	})
	s.base = e.Serve(mux)
	s.other = strings.Replace(s.base, "127.0.0.1", "localhost", 1)
	return s
}

func (s *originSite) count(hostPath string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[hostPath]
}

// refusedOnOrigin: no request of the test ever reached the refused host
// name, except the frame its page embeds (policy governs navigation) and
// the paths in leftOnce, which it may have served once: a navigation the
// page's own script starts on the scripting route can send its request
// before anything stops it (nothing holds requests without the debugger).
func (s *originSite) refusedOnOrigin(t *testing.T, leftOnce ...string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, n := range s.hits {
		switch {
		case !strings.HasPrefix(k, "localhost/") || k == "localhost/frame":
		case slices.Contains(leftOnce, strings.TrimPrefix(k, "localhost")) && n <= 1:
		default:
			t.Errorf("the refused origin served %s %d times", k, n)
		}
	}
}

// tabURL is the URL Chrome shows for the one tab whose URL starts with prefix.
func tabURL(t *testing.T, e *harness.Env, prefix string) string {
	t.Helper()
	var found []string
	for _, ct := range e.ChromeTabs(t) {
		if strings.HasPrefix(ct.URL, prefix) || strings.HasPrefix(ct.PendingURL, prefix) {
			found = append(found, ct.URL)
		}
	}
	if len(found) != 1 {
		t.Fatalf("Chrome has %d tabs under %s, want 1: %+v", len(found), prefix, e.ChromeTabs(t))
	}
	return found[0]
}

// guarded reports whether the debugger is attached to the tab whose URL
// starts with prefix (only AgentTab attaches one in these tests).
func guarded(t *testing.T, e *harness.Env, prefix string) bool {
	t.Helper()
	var attached bool
	e.Eval(t, fmt.Sprintf(`chrome.debugger.getTargets().then(ts => ts.some(x => x.tabId !== undefined && x.url.startsWith(%q) && x.attached))`, prefix), &attached)
	return attached
}

// stoppedStep checks a one-step batch whose navigation the origin guard
// stopped: navigation refused, origin_policy_denied, the input dispatched.
func stoppedStep(t *testing.T, s *mcp.ClientSession, tab string, rev int64, st map[string]any) {
	t.Helper()
	res := actFailed(t, s, tab, rev, protocol.CodeOriginPolicyDenied, 0, st)
	got := stepsOf(res)[0]
	if got["navigation"] != string(protocol.NavigationRefused) || got["outcome"] != string(protocol.OutcomeDispatched) {
		t.Fatalf("%v: receipt %v, want navigation refused and outcome dispatched", st, got)
	}
	if revisionOf(res) != rev {
		t.Fatalf("%v: the page revision moved from %d to %d; the tab should have kept its page", st, rev, revisionOf(res))
	}
}

// Denied wins over allowed; explicit targets are refused before anything
// runs; navigations the page starts (link, server redirect, script, a
// popup) are stopped and reported with the tab left on its page; history
// movement on a full tab goes to allowed entries; an allowed navigation
// works, and the cross-origin frame of the page still loads.
func TestOriginPolicyGuardsNavigation(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"origins":{"allowed":["http://127.0.0.1","http://localhost"],"denied":["http://localhost"]}}`))
	site := serveOriginSite(t, e)
	s := e.MCP(t)

	// Refused before navigation: no tab is created.
	tabsBefore := len(e.ChromeTabs(t))
	res := refused(t, s, protocol.MethodOpen, map[string]any{"url": site.other + "/landing"}, protocol.CodeOriginPolicyDenied)
	if res["outcome"] != string(protocol.OutcomeNotStarted) || !strings.Contains(fmt.Sprint(res["message"]), "denied by the origins.denied entry http://localhost") {
		t.Fatalf("denied open: %v", res)
	}
	refused(t, s, protocol.MethodOpen, map[string]any{"url": "chrome://version/"}, protocol.CodeOriginPolicyDenied)
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Fatalf("Chrome has %d tabs after refused opens, had %d", n, tabsBefore)
	}

	// A redirect of the first load is stopped too, and the tab made for it
	// closed again.
	res = refused(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/redir"}, protocol.CodeOriginPolicyDenied)
	if res["outcome"] != string(protocol.OutcomeDispatched) || site.count("127.0.0.1/redir") != 1 {
		t.Fatalf("an open redirected to a denied origin (redirect served %d times): %v", site.count("127.0.0.1/redir"), res)
	}
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Fatalf("Chrome has %d tabs after a stopped open, had %d", n, tabsBefore)
	}

	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"})
	if got := tabOf(t, opened); got["url"] != site.base+"/" || got["loading"] == true {
		t.Fatalf("open under the policy answered %v, want the loaded page", got)
	}
	tab := handleOf(t, opened)
	if !guarded(t, e, site.base) {
		t.Fatalf("the opened tab is not guarded")
	}
	e.WaitFor(t, "the cross-origin frame to load", 10*time.Second, func() bool { return site.count("localhost/frame") > 0 })
	text, rev, _ := snap(t, s, tab, nil)
	if !strings.Contains(text, "Inside the frame") {
		t.Errorf("the frame's content is missing from the snapshot:\n%s", text)
	}

	// A batch with a refused navigate target does not start at all.
	res = refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{
		step("navigate", "url", site.base+"/second"), step("navigate", "url", site.other+"/x"),
	}}, protocol.CodeOriginPolicyDenied)
	if res["outcome"] != string(protocol.OutcomeNotStarted) || site.count("127.0.0.1/second") != 0 {
		t.Fatalf("a refused batch ran (second page served %d times): %v", site.count("127.0.0.1/second"), res)
	}

	// Navigations the page starts are stopped where they would leave.
	for _, name := range []string{"Denied link", "Redirecting link"} {
		stoppedStep(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", name)))
	}
	stoppedStep(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Script navigation")))
	if site.count("127.0.0.1/redir") != 2 {
		t.Errorf("the redirecting page was asked %d times, want 2 (only its redirect is refused)", site.count("127.0.0.1/redir"))
	}
	// A navigation the page starts while no step runs is stopped as well.
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Later navigation")))
	e.WaitFor(t, "the page's timer to fire", 10*time.Second, func() bool {
		for _, ct := range e.ChromeTabs(t) {
			if ct.Title == "Leaving" {
				return true
			}
		}
		return false
	})
	time.Sleep(500 * time.Millisecond)
	if u := tabURL(t, e, site.base); u != site.base+"/" {
		t.Fatalf("the tab is at %s, want it still on %s/", u, site.base)
	}
	// No step watched that stop: the tab's next result reports it, once.
	_, _, res = snap(t, s, tab, nil)
	if stops, _ := res["origin_stops"].([]any); len(stops) != 1 || !strings.HasSuffix(fmt.Sprint(stops[0].(map[string]any)["url"]), "/late") {
		t.Errorf("the next snapshot reports stops %v, want the /late navigation", res["origin_stops"])
	}
	if _, _, res = snap(t, s, tab, nil); res["origin_stops"] != nil {
		t.Errorf("a stop was reported twice: %v", res["origin_stops"])
	}

	// A popup toward the refused origin is not opened and not taken in.
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Denied popup")))
	popups, _ := stepsOf(res)[0]["popups"].([]any)
	if len(popups) != 1 {
		t.Fatalf("want one popup entry on the step: %v", res)
	}
	p, _ := popups[0].(map[string]any)
	if errObj, _ := p["error"].(map[string]any); errObj["code"] != string(protocol.CodeOriginPolicyDenied) || p["tab"] != nil {
		t.Fatalf("popup entry %v, want origin_policy_denied and no tab", p)
	}
	if got := listed(t, ok(t, s, protocol.MethodTabs, nil)); len(got) != 1 {
		t.Fatalf("the task owns %d tabs, want 1: %v", len(got), got)
	}

	// An allowed navigation the page starts goes through; history moves
	// between allowed pages.
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Second page")))
	if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationCommitted) {
		t.Fatalf("allowed link: %v", res)
	}
	rev = revisionOf(res)
	res = act(t, s, tab, rev, step("back"))
	if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationCommitted) || st["outcome"] != string(protocol.OutcomeConfirmed) || res["url"] != site.base+"/" {
		t.Fatalf("back to an allowed page: %v", res)
	}
	res = act(t, s, tab, revisionOf(res), step("forward"))
	if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationCommitted) || res["url"] != site.base+"/second" {
		t.Fatalf("forward to an allowed page: %v", res)
	}
	res = act(t, s, tab, revisionOf(res), step("navigate", "url", site.base+"/third"))
	if st := stepsOf(res)[0]; st["outcome"] != string(protocol.OutcomeConfirmed) || res["url"] != site.base+"/third" {
		t.Fatalf("allowed navigate: %v", res)
	}
	site.refusedOnOrigin(t)
}

// With origin constraints, back and forward on a tab_only page are refused
// (Chrome does not say where they lead); an explicit navigation recovers.
func TestOriginPolicyRefusesHistoryOnTabOnly(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"origins":{"denied":["http://localhost"]}}`))
	site := serveOriginSite(t, e)
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/second"})
	res := act(t, s, handleOf(t, opened), int64(tabOf(t, opened)["page_revision"].(float64)), step("navigate", "url", "chrome://version/"))
	tab := handleOf(t, opened)
	if st := stepsOf(res)[0]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("navigate to a browser page (no deny entry names it): %v", res)
	}
	rev := revisionOf(res)
	for _, kind := range []string{"back", "forward"} {
		actRefused(t, s, tab, rev, protocol.CodeOriginPolicyUnverifiable, 0, step(kind))
	}
	if u := tabURL(t, e, "chrome://version"); u != "chrome://version/" {
		t.Fatalf("the tab moved to %s", u)
	}
	// Reloading the browser page is a recovery operation.
	res = act(t, s, tab, rev, step("reload"))
	if st := stepsOf(res)[0]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("reload of the browser page: %v", res)
	}
	if guarded(t, e, "chrome://version") {
		t.Errorf("the debugger is attached to a browser page")
	}
	res = act(t, s, tab, revisionOf(res), step("navigate", "url", site.base+"/"))
	if st := stepsOf(res)[0]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("explicit navigation away: %v", res)
	}
	// Back on a web page, the guard takes the tab up again by itself.
	e.WaitFor(t, "the guard to attach again", 10*time.Second, func() bool { return guarded(t, e, site.base) })
	site.refusedOnOrigin(t)
}

// Without origin constraints history movement works on tab_only pages too.
func TestHistoryOnTabOnlyWithoutOriginPolicy(t *testing.T) {
	e := harness.Start(t)
	site := serveOriginSite(t, e)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	// A link the page follows on a real click leaves an entry Chrome's
	// back goes to (entries made without a gesture it skips).
	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Second page")))
	res = act(t, s, tab, revisionOf(res), step("navigate", "url", "chrome://version/"))
	res = act(t, s, tab, revisionOf(res), step("back"))
	if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationCommitted) || res["url"] != site.base+"/second" {
		t.Fatalf("back from a tab_only page without a policy: %v", res)
	}
}
