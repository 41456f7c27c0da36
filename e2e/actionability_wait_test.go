package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// animatedPage is built with jQuery UI: an accordion whose panels open and
// close over 1.5 s (all closed at first), a dialog that drops in (slides
// and fades) and a menu that slides down and up, each with a control
// inside. The page's status line says
// what was chosen.
const animatedPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trip</title>
<link rel="stylesheet" href="/vendor/jquery-ui/dist/themes/base/jquery-ui.min.css">
<script src="/vendor/jquery/dist/jquery.min.js"></script>
<script src="/vendor/jquery-ui/dist/jquery-ui.min.js"></script></head><body>
<div id="trip" style="width:420px">
<h3>Flights</h3><div><p>Three flights found.</p><button type="button" class="book" data-what="flight">Book flight</button></div>
<h3>Hotels</h3><div><p>Two hotels found.</p><p>Near the station.</p><button type="button" class="book" data-what="hotel">Book hotel</button></div>
</div>
<button id="share">Share</button> <button id="more">Options</button>
<ul id="menu" style="display:none;width:200px"><li><div>Rename</div></li><li><div>Duplicate</div></li><li><div>Archive</div></li></ul>
<div id="dialog" title="Share trip"><p>Share with the team.</p></div>
<p id="status">done: none</p> <p id="motion">motion: still</p>
<script>
// The page's own word on its jQuery animations, for the test to wait until
// all ended: any click may start one (said at once, before the widgets'
// handlers run), and every 20 ms the page looks again.
document.addEventListener("click", () => $("#motion").text("motion: running"), true);
setInterval(() => $("#motion").text($(":animated").length ? "motion: running" : "motion: still"), 20);
const done = (what) => $("#status").text("done: " + what);
$("#trip").accordion({ heightStyle: "content", animate: 1500, collapsible: true, active: false });
$(".book").on("click", function () { done($(this).data("what")); });
$("#dialog").dialog({ autoOpen: false, show: { effect: "drop", direction: "up", duration: 1500 }, buttons: { Send: () => { done("sent"); $("#dialog").dialog("close"); } } });
$("#share").on("click", () => $("#dialog").dialog("open"));
$("#menu").menu({ select: (e, ui) => done(ui.item.text()) });
$("#more").on("click", () => $("#menu").slideToggle(1500));
</script></body></html>`

// snapUntil snapshots until the text holds want and not gone ("" for
// none) and the page says no animation runs, for up to 5 s, and returns
// the snapshot and its revision.
func snapUntil(t *testing.T, s *mcp.ClientSession, tab, want, gone string) (string, int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		text, rev, _ := snap(t, s, tab, nil)
		if strings.Contains(text, want) && (gone == "" || !strings.Contains(text, gone)) && strings.Contains(text, "motion: still") {
			return text, rev
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never showed %q without %q:\n%s", want, gone, text)
		}
	}
}

// openedOnce opens and closes each widget of animatedPage once, so that an
// agent's snapshot gave refs to the controls inside, and waits until every
// animation ended. It returns the latest snapshot, its revision and the
// refs of "Book hotel", "Send" and "Archive".
func openedOnce(t *testing.T, s *mcp.ClientSession, tab string) (string, int64, [3]string) {
	t.Helper()
	text, rev, _ := snap(t, s, tab, nil)
	var refs [3]string
	for i, w := range []struct{ role, name, inside, role2 string }{
		{"tab", "Hotels", "Book hotel", "button"},
		{"button", "Share", "Send", "button"},
		{"button", "Options", "Archive", "menuitem"},
	} {
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, w.role, w.name)))
		opened, _ := snapUntil(t, s, tab, w.role2+` "`+w.inside+`"`, "")
		refs[i] = refOf(t, opened, w.role2, w.inside)
		closer := refOf(t, opened, w.role, w.name)
		if w.name == "Share" {
			closer = refOf(t, opened, "button", "Close")
		}
		act(t, s, tab, rev, step("click", "ref", closer))
		text, rev = snapUntil(t, s, tab, w.name, w.role2+` "`+w.inside+`"`)
	}
	return text, rev, refs
}

// TestClickWaitsForWidgetsAnimatingInABackgroundTab (issue 11): in a task's
// background tab, where Chrome renders about one frame a second, one batch
// opens a widget and clicks a control inside it while it animates in: a
// jQuery UI accordion panel (0 high at first, then growing, its control
// clipped), a dialog dropping in (transparent at first) and a menu sliding
// down. The click waits until the control is shown and still, then goes
// out, and the receipt says how long it waited. Before, each was refused
// at once.
func TestClickWaitsForWidgetsAnimatingInABackgroundTab(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": animatedPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	if chromeTabByURL(t, e, base+"/").Active {
		t.Fatal("the task's tab is the active tab; this test is about a background tab")
	}
	text, rev, refs := openedOnce(t, s, tab)
	for i, tc := range []struct {
		role, name, done string
		// The control stays clipped for most of the animation; a dialog's
		// button is actionable from the first frame that lifts its opacity
		// from 0, which may come before the click's first look.
		waits bool
	}{
		{"tab", "Hotels", "done: hotel", true},
		{"button", "Share", "done: sent", false},
		{"button", "Options", "done: Archive", true},
	} {
		res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, tc.role, tc.name)), step("click", "ref", refs[i]))
		receipt := stepsOf(res)[1]
		waited, _ := receipt["waited_ms"].(float64)
		t.Logf("%s: waited %v ms", receipt["note"], waited)
		if receipt["outcome"] != string(protocol.OutcomeDispatched) || (tc.waits && waited <= 0) || waited >= protocol.DefaultActionableMs {
			t.Errorf("%v, want dispatched after waiting less than %d ms", receipt, protocol.DefaultActionableMs)
		}
		// The page says so, once its animations ended.
		text, rev = snapUntil(t, s, tab, tc.done, "")
	}
}

// TestActionableTimeoutBoundsTheWait: with actionable_timeout_ms shorter
// than the accordion's animation, the click inside the opening panel is
// refused when the time is up, saying how long it waited, and nothing
// reached the page; with 0 it is refused at once.
func TestActionableTimeoutBoundsTheWait(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": animatedPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, refs := openedOnce(t, s, tab)
	for _, timeout := range []int{300, 0} {
		res := refusedAny(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actionable_timeout_ms": timeout,
			"actions": []any{step("click", "ref", refOf(t, text, "tab", "Hotels")), step("click", "ref", refs[0])}})
		steps := stepsOf(res)
		if len(steps) != 2 {
			t.Fatalf("timeout %d: %v, want the second click refused", timeout, res)
		}
		receipt := steps[1]
		errObj, _ := receipt["error"].(map[string]any)
		waited, _ := receipt["waited_ms"].(float64)
		t.Logf("timeout %d: %v", timeout, receipt)
		switch errObj["code"] {
		case string(protocol.CodeTargetNotActionable), string(protocol.CodeTargetMoving), string(protocol.CodeTargetCovered):
		default:
			t.Fatalf("timeout %d: %v, want the target refused", timeout, receipt)
		}
		if receipt["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("timeout %d: outcome %v, want not_started", timeout, receipt["outcome"])
		}
		if timeout > 0 && (waited < float64(timeout) || waited > float64(timeout)+1000 || !strings.Contains(errObj["message"].(string), "after waiting")) {
			t.Errorf("timeout %d: waited %v ms (%v), want the timeout and a message saying so", timeout, waited, errObj["message"])
		}
		if timeout == 0 && waited != 0 {
			t.Errorf("timeout 0 waited %v ms", waited)
		}
		// Let the panel finish opening, check nothing was booked, close it again.
		now, _ := snapUntil(t, s, tab, "Book hotel", "")
		if !strings.Contains(now, "done: none") {
			t.Fatalf("a refused click reached the page:\n%s", now)
		}
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, "tab", "Hotels")))
		snapUntil(t, s, tab, "Hotels", "Book hotel")
	}
}
