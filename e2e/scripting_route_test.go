package e2e

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// scriptedCanary is a password field's value no result, audit record or log may hold.
const scriptedCanary = "CANARY-scripted-pw-5150"

// On the scripting route every step and wait says which route served it
// and that its input lacked user activation; scrolls, text and ref waits
// work; a covered target is refused like on the debugger route; and what
// only the debugger can do (drag, dialogs, network idle, downloads, hover)
// fails debugger_unavailable, not_started, with nothing done to the page.
func TestScriptingRouteServesAndRefuses(t *testing.T) {
	e, blocker := blockedPage(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Scripted</title><h1>Scripted</h1>
<button onclick="document.getElementById('count').textContent = Number(document.getElementById('count').textContent) + 1">Count</button>
<p>count: <span id="count">0</span></p>
<button onclick="setTimeout(() => { document.getElementById('late').hidden = false }, 300)">Reveal</button>
<p id="late" hidden>Revealed now</p>
<div style="position: relative; width: 200px"><button>Under</button><div style="position: absolute; inset: 0; background: white">Veil</div></div>
<a href="/file.bin" download>Get file</a>
<label>Password <input type="password" value="`+scriptedCanary+`"></label>
<button onclick="window.open('/popped')">Pop up</button><a href="/linked" target="_blank">New tab link</a>
<div style="height: 3000px"></div><p>Bottom</p>`+blocker)
	})
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", "attachment")
		fmt.Fprint(w, "file")
	})
	base := e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	setAutomation(t, e, true)

	text, rev, res := snap(t, s, tab, nil)
	if res["served_by"] != protocol.RouteScripting || res["lacks_user_activation"] != true {
		t.Fatalf("snapshot: served_by %v, lacks_user_activation %v", res["served_by"], res["lacks_user_activation"])
	}
	count, reveal := refOf(t, text, "button", "Count"), refOf(t, text, "button", "Reveal")

	res = act(t, s, tab, rev, step("click", "ref", count), step("scroll", "delta_y", 500), step("click", "ref", reveal),
		step("wait", "wait", map[string]any{"until": "text", "text": "Revealed now"}))
	for i, st := range stepsOf(res) {
		if st["served_by"] != protocol.RouteScripting {
			t.Errorf("step %d: served_by %v", i, st["served_by"])
		}
		if want := st["kind"] == "click"; (st["lacks_user_activation"] == true) != want {
			t.Errorf("step %d (%v): lacks_user_activation %v", i, st["kind"], st["lacks_user_activation"])
		}
	}
	if st := stepsOf(res)[1]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Errorf("the scripted scroll did not move the page: %v", st)
	}
	// The window.open trap runs in the page's main world for the gesture:
	// popups become background tabs of the task, the user's tab stays.
	active := activeTabs(t, e)
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Pop up")), step("click", "ref", refOf(t, text, "link", "New tab link")))
	for i, st := range stepsOf(res) {
		popups, _ := st["popups"].([]any)
		if len(popups) != 1 {
			t.Errorf("step %d: popups %v, want one", i, st["popups"])
			continue
		}
		if p, _ := popups[0].(map[string]any); p["tab"] == nil || !strings.HasSuffix(fmt.Sprint(p["url"]), []string{"/popped", "/linked"}[i]) {
			t.Errorf("step %d: popup %v", i, p)
		}
	}
	if now := activeTabs(t, e); fmt.Sprint(now) != fmt.Sprint(active) {
		t.Errorf("active tabs went from %v to %v", active, now)
	}
	var trapLeft bool
	e.Eval(t, `chrome.tabs.query({}).then(async (tabs) => { const tab = tabs.find((x) => x.url.endsWith("/") && x.groupId > 0);
		const [r] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, world: "MAIN", func: () => !/\[native code\]/.test(Function.prototype.toString.call(window.open)) || Object.getOwnPropertyNames(window).some((n) => n.startsWith("__agenttab")) });
		return r.result; })`, &trapLeft)
	if trapLeft {
		t.Errorf("the trap is still in the page's main world after the gesture")
	}

	wait := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "ref", "ref": count, "state": "enabled"})
	if wait["satisfied"] != true || wait["served_by"] != protocol.RouteScripting {
		t.Errorf("ref wait on the scripting route: %v", wait)
	}

	refusedStep := func(code protocol.ErrorCode, st map[string]any) {
		t.Helper()
		res := actRefused(t, s, tab, rev, code, 0, st)
		if errObj, _ := res["error"].(map[string]any); errObj["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%v: %v", st["kind"], res)
		}
	}
	// The Standard boundaries hold on this route as on the debugger's.
	refusedStep(protocol.CodeTargetCovered, step("click", "ref", refOf(t, text, "button", "Under")))
	refusedStep(protocol.CodeSensitiveField, step("fill", "ref", refOf(t, text, "textbox", "Password"), "text", "guess"))
	refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev + 1, "actions": []any{step("click", "ref", count)}}, protocol.CodeStaleRevision)
	other := e.MCP(t)
	refused(t, other, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", count)}}, protocol.CodeNotOwned)
	refused(t, other, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeNotOwned)
	for _, st := range []map[string]any{
		step("drag", "ref", count, "to_ref", reveal),
		step("hover", "ref", count),
		step("double_click", "ref", count),
		step("dialog", "accept", true),
		step("wait", "wait", map[string]any{"until": "network_idle"}),
		step("wait", "wait", map[string]any{"until": "download"}),
	} {
		refusedStep(protocol.CodeDebuggerUnavailable, st)
	}
	for _, until := range []string{"network_idle", "download"} {
		r := refused(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": until}, protocol.CodeDebuggerUnavailable)
		if r["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%s wait: %v", until, r)
		}
	}
	// A same-document navigation advances the revision; the one it left is
	// refused (by the host, before the route is chosen) and the count stays.
	moved := act(t, s, tab, rev, step("navigate", "url", base+"/#moved"))
	if revisionOf(moved) <= rev {
		t.Fatalf("the navigation did not advance the revision: %v", moved)
	}
	refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", count)}}, protocol.CodeStaleRevision)
	after, _, res := snap(t, s, tab, map[string]any{"mode": "full"})
	if !strings.Contains(after, "count: 1") {
		t.Errorf("a refused step reached the page (or the first click did not):\n%s", after)
	}
	if strings.Contains(fmt.Sprint(res), scriptedCanary) {
		t.Errorf("the password field's value reached a snapshot")
	}
	noSecretInState(t, e, "", scriptedCanary)
}

// The origin policy holds on the scripting route: a scripted click on a
// link to a denied origin is refused before anything is dispatched (the
// refused origin sees no request), and a navigation the page's own script
// starts is stopped (window.stop() through chrome.scripting) or, when it
// committed first, taken back, and the step reports it.
func TestOriginPolicyOnTheScriptingRoute(t *testing.T) {
	e, blocker := blockedPage(t, harness.WithPolicy(`{"origins":{"denied":["http://localhost"]}}`))
	site := serveOriginSite(t, e)
	site.blocker = blocker
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"}))
	setAutomation(t, e, true)
	text, rev, res := snap(t, s, tab, nil)
	if res["served_by"] != protocol.RouteScripting {
		t.Fatalf("the page was not read through the scripting route: %v", res["served_by"])
	}

	res = actRefused(t, s, tab, rev, protocol.CodeOriginPolicyDenied, 0, step("click", "ref", refOf(t, text, "link", "Denied link")))
	if revisionOf(res) != rev {
		t.Fatalf("the denied link: %v", res)
	}
	if n := site.count("localhost/landing"); n != 0 {
		t.Fatalf("the denied origin served the link's page %d times", n)
	}

	// A form aimed at the denied origin: refused before the click, the denied origin sees no request.
	actRefused(t, s, tab, rev, protocol.CodeOriginPolicyDenied, 0, step("click", "ref", refOf(t, text, "button", "Denied form")))
	if n := site.count("localhost/form"); n != 0 {
		t.Fatalf("the denied origin served the form's post %d times", n)
	}

	res = actFailed(t, s, tab, rev, protocol.CodeOriginPolicyDenied, 0, step("click", "ref", refOf(t, text, "button", "Script navigation")))
	if got := stepsOf(res)[0]; got["navigation"] != string(protocol.NavigationRefused) || got["served_by"] != protocol.RouteScripting {
		t.Fatalf("the script's navigation: %v", res)
	}
	backOnPage(t, e, site.base+"/")
	// Nothing holds the script's request without the debugger: it may
	// have left once, and never again (no retry, no reload of it).
	if n := site.count("localhost/script"); n > 1 {
		t.Fatalf("the denied origin served the script's navigation %d times, want at most once", n)
	}
	text, rev, _ = snap(t, s, tab, nil)
	if !strings.Contains(text, "Denied link") {
		t.Errorf("after the stop the tab reads:\n%s", text)
	}

	// A navigation the page starts later, while no step watches: stopped,
	// and reported once with the tab's next result.
	// The worker records the tab's commits, so the test knows when the stop
	// is over: stopped before the request left (nothing commits), or the
	// refused page committed and the page was loaded again after it.
	e.Eval(t, `(() => { globalThis.commits = []; chrome.webNavigation.onCommitted.addListener((d) => { if (d.frameId === 0) globalThis.commits.push(d.url); }); return true; })()`, nil)
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Later navigation")))
	var leaving time.Time
	e.WaitFor(t, "the page's timer to fire and the guard's stop to be over", 15*time.Second, func() bool {
		var commits []string
		e.Eval(t, `globalThis.commits`, &commits)
		if i := slices.IndexFunc(commits, func(u string) bool { return strings.HasSuffix(u, "/late") }); i >= 0 {
			return slices.Contains(commits[i+1:], site.base+"/")
		}
		// Stopped before it committed (window.stop(), the request sent or
		// not): the page stays, and no navigation is in flight any more.
		var state struct{ Leaving, Pending bool }
		e.Eval(t, `chrome.tabs.query({}).then((tabs) => ({ leaving: tabs.some((x) => x.title === "Leaving"), pending: tabs.some((x) => (x.pendingUrl ?? "") !== "") }))`, &state)
		if state.Leaving && leaving.IsZero() {
			leaving = time.Now()
		}
		return !leaving.IsZero() && !state.Pending && time.Since(leaving) > 3*time.Second
	})
	backOnPage(t, e, site.base+"/")
	_, _, res = snap(t, s, tab, nil)
	stops, _ := res["origin_stops"].([]any)
	if len(stops) != 1 || !strings.HasSuffix(fmt.Sprint(stops[0].(map[string]any)["url"]), "/late") {
		t.Errorf("the next snapshot reports stops %v, want the /late navigation once", res["origin_stops"])
	}
	// A refused page that committed before the stop also asked for its icon.
	site.refusedOnOrigin(t, "/script", "/late", "/favicon.ico")
}

// backOnPage waits until a tab of Chrome shows url again (after a stop, the
// tab may still be on the refused page, or on its way back, for a moment).
func backOnPage(t *testing.T, e *harness.Env, url string) {
	t.Helper()
	e.WaitFor(t, "the tab to be back on "+url, 10*time.Second, func() bool {
		for _, ct := range e.ChromeTabs(t) {
			if ct.URL == url && ct.PendingURL == "" {
				return true
			}
		}
		return false
	})
}
