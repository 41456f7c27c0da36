package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// bannerDetach is one chrome.debugger.onDetach the worker saw.
type bannerDetach struct {
	TabID  int    `json:"tabId"`
	Reason string `json:"reason"`
}

// Issue 12 ("The human's controls"): the user's Cancel on Chrome's
// "“AgentTab” started debugging this browser" banner, clicked with the
// pointer on the real button (found in the window's accessibility tree),
// detaches AgentTab's debugger with reason canceled_by_user, as the
// worker's onDetach sees it, and is the user's Pause: the host and the
// popup say paused by the banner's Cancel, agents are refused paused with
// recovery that says so, AgentTab never attaches again by itself (no
// banner, no attachment while the agent keeps calling), the Pause survives
// a browser restart, and the popup's Resume lifts it.
func TestHeadfulDebuggingBannerCancel(t *testing.T) {
	e := harness.StartHeadful(t, harness.WithBrowserUI(t))
	fx := &hitCounter{hits: map[string]int{}} // its page's Next button counts clicks
	base := e.Serve(fx)
	s := e.MCP(t)
	attachAt := time.Now()
	tab, rev, refs := reviewTab(t, s, base) // the snapshot attaches chrome.debugger to the task's tab
	snapTook := time.Since(attachAt)

	// A second listener in the worker records what Chrome reports, beside
	// AgentTab's own.
	e.Eval(t, `(() => {
		globalThis.bannerDetaches = [];
		chrome.debugger.onDetach.addListener((src, reason) => globalThis.bannerDetaches.push({tabId: src.tabId, reason}));
		return true;
	})()`, nil)

	// The user switches to the task's tab (the banner shows only there).
	task := chromeTabByURL(t, e, base+"/")
	e.Eval(t, fmt.Sprintf(`chrome.tabs.update(%d, {active: true}).then(() => true)`, task.ID), nil)

	tm, err := e.CancelDebuggingBanner(t)
	if err != nil {
		t.Fatal(err)
	}
	var got []bannerDetach
	e.WaitFor(t, "onDetach after Cancel", 5*time.Second, func() bool {
		e.Eval(t, `globalThis.bannerDetaches`, &got)
		return len(got) > 0
	})
	if len(got) != 1 || got[0].TabID != task.ID || got[0].Reason != "canceled_by_user" {
		t.Fatalf("onDetach after clicking Cancel: %+v, want one {tabId: %d, reason: canceled_by_user}", got, task.ID)
	}
	t.Logf("snapshot (attach) %s; banner found %s, pointer click %s, banner gone %s after the click",
		snapTook.Round(time.Millisecond), tm.Found.Round(time.Millisecond), tm.Clicked.Round(time.Millisecond), tm.Gone.Round(time.Millisecond))

	// The host says paused, and why: the Core status and `agenttab status`.
	e.WaitFor(t, "the host to pause for the banner's Cancel", 10*time.Second, func() bool {
		st := coreStatus(t, e)
		return st.Lifecycle == protocol.LifecyclePaused && st.PauseReason == protocol.PauseByDebuggerCancel
	})
	var cli protocol.StatusResult
	if err := json.Unmarshal([]byte(agenttab(t, e, "status", "--json")), &cli); err != nil || cli.Lifecycle != protocol.LifecyclePaused || cli.PauseReason != protocol.PauseByDebuggerCancel {
		t.Fatalf("agenttab status --json: %+v (%v), want paused by debugger_canceled", cli, err)
	}

	// The popup says who paused and offers Resume.
	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, bannerPauseLine, 5*time.Second)
	popup.WaitText(t, "Resume agents", 5*time.Second)
	popup.Close()

	// The agent keeps calling for a while: every call is refused paused,
	// not_started, saying what the user did and what undoes it, and
	// AgentTab attaches nothing (Chrome shows no banner again).
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		res := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodePaused)
		checkBannerPauseRefusal(t, "snapshot", res)
		res = refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", refs["next"])}}, protocol.CodePaused)
		checkBannerPauseRefusal(t, "act", res)
		fx.want(t, "a click refused paused", map[string]int{"next": 0})
		noAttachment(t, e, task.ID)
	}

	// A browser restart keeps the Pause and its reason (both sides stored it).
	e.RestartBrowser(t)
	if st := coreStatus(t, e); st.Lifecycle != protocol.LifecyclePaused || st.PauseReason != protocol.PauseByDebuggerCancel {
		t.Fatalf("after a browser restart the host is %s (reason %q), want paused by debugger_canceled", st.Lifecycle, st.PauseReason)
	}
	s = e.MCP(t)
	checkBannerPauseRefusal(t, "open after the restart", refused(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}, protocol.CodePaused))

	// The user's Resume, clicked in the popup, lifts it: page work attaches
	// again (the banner may show again: the user's choice).
	popup = e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, bannerPauseLine, 5*time.Second)
	popup.Click(t, "#pause")
	e.WaitFor(t, "the host to resume", 10*time.Second, func() bool { return coreStatus(t, e).Lifecycle == protocol.LifecycleReady })
	popup.WaitText(t, "Pause agents", 5*time.Second)
	if st := coreStatus(t, e); st.PauseReason != "" {
		t.Errorf("after Resume the status still names a pause reason %q", st.PauseReason)
	}
	tab, rev, refs = reviewTab(t, s, base)
	act(t, s, tab, rev, step("click", "ref", refs["next"]))
	fx.want(t, "a click after Resume", map[string]int{"next": 1})
}

// bannerPauseLine is what the popup says after the banner's Cancel
// (popup/describe.ts describePause).
const bannerPauseLine = "Paused: you clicked Cancel on Chrome's debugging banner."

func coreStatus(t testing.TB, e *harness.Env) protocol.StatusResult {
	t.Helper()
	var st protocol.StatusResult
	if err := e.CoreCall(t.Context(), protocol.MethodStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// checkBannerPauseRefusal checks a paused refusal says nothing ran, that
// the user clicked Cancel on the debugging banner, and to ask for Resume
// in the popup.
func checkBannerPauseRefusal(t testing.TB, what string, res map[string]any) {
	t.Helper()
	msg, _ := res["message"].(string)
	rec, _ := res["recovery"].(string)
	if res["outcome"] != string(protocol.OutcomeNotStarted) || !strings.Contains(msg, "Cancel") || !strings.Contains(msg, "debugging") ||
		!strings.Contains(rec, "Resume") || !strings.Contains(rec, "popup") {
		t.Fatalf("%s while paused by the banner's Cancel: %v, want not_started, a message naming the banner's Cancel and recovery asking for Resume in the popup", what, res)
	}
}

// noAttachment checks that Chrome shows no debugging banner of AgentTab
// and that no debugger is attached to the tab.
func noAttachment(t testing.TB, e *harness.Env, tabID int) {
	t.Helper()
	banners, err := e.DebuggingBanners(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(banners) != 0 {
		t.Fatalf("the debugging banner came back: %+v", banners)
	}
	var attached bool
	e.Eval(t, fmt.Sprintf(`chrome.debugger.getTargets().then(ts => ts.some(x => x.tabId === %d && x.attached))`, tabID), &attached)
	if attached {
		t.Fatal("a debugger is attached to the task's tab after the banner's Cancel")
	}
}
