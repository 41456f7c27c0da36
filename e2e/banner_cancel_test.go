package e2e

import (
	"fmt"
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

// Issue 12: the user's Cancel on Chrome's "“AgentTab” started debugging
// this browser" banner, clicked with the pointer on the real button (found
// in the window's accessibility tree), detaches AgentTab's debugger with
// reason canceled_by_user, as the worker's onDetach sees it. What the
// worker makes of it (the Pause with reason debugger_canceled) is checked
// by the tests of that handling; this one proves the user's path exists.
func TestHeadfulDebuggingBannerCancel(t *testing.T) {
	e := harness.StartHeadful(t, harness.WithBrowserUI(t))
	base := e.ServePages(map[string]string{"/": page("Task page")})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	attachAt := time.Now()
	snap(t, s, tab, nil) // the snapshot attaches chrome.debugger to the task's tab
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
}
