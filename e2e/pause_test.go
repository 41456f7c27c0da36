package e2e

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

func agenttab(t *testing.T, e *harness.Env, args ...string) string {
	t.Helper()
	out, err := agenttabCmd(e, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("agenttab %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// agenttabCmd is the CLI against the test's state directory.
func agenttabCmd(e *harness.Env, args ...string) *exec.Cmd {
	cmd := exec.Command(e.Bin, args...)
	cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
	return cmd
}

func lifecycleOf(t *testing.T, e *harness.Env) string {
	t.Helper()
	var st protocol.StatusResult
	if err := e.CoreCall(t.Context(), protocol.MethodStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	return string(st.Lifecycle)
}

// Pause from the CLI refuses new work with nothing created; a tab the user
// closes while paused is gone after Resume; Pause and Resume from the
// popup, clicked as a user would, do the same.
func TestPauseFromCLIAndPopup(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("One"), "/two": page("Two")})
	s := e.MCP(t)
	one := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	two := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/two"}))
	twoID := chromeTabByURL(t, e, base+"/two").ID

	if out := agenttab(t, e, "pause"); !strings.Contains(out, "paused") {
		t.Fatalf("agenttab pause printed %q", out)
	}
	if lc := lifecycleOf(t, e); lc != string(protocol.LifecyclePaused) {
		t.Fatalf("lifecycle %s after pause", lc)
	}
	tabsBefore := len(e.ChromeTabs(t))
	refused(t, s, protocol.MethodOpen, map[string]any{"url": base + "/three"}, protocol.CodePaused)
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Errorf("a refused open changed the tabs: %d → %d", tabsBefore, n)
	}

	// The user closes one task tab while paused.
	e.Eval(t, "chrome.tabs.remove("+strconv.Itoa(twoID)+")", nil)
	out := agenttab(t, e, "resume")
	if !strings.Contains(out, "resumed: ready") {
		t.Fatalf("agenttab resume printed %q", out)
	}
	refused(t, s, protocol.MethodTabs, map[string]any{"tab": two}, protocol.CodeNotOwned)
	if got := listed(t, ok(t, s, protocol.MethodTabs, nil)); len(got) != 1 {
		t.Errorf("after resume the task lists %d tabs, want 1", len(got))
	}

	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, "Agent 1", 5*time.Second)
	popup.Click(t, "#pause")
	popup.WaitText(t, "Agents are paused", 5*time.Second)
	e.WaitFor(t, "the host to pause", 5*time.Second, func() bool { return lifecycleOf(t, e) == string(protocol.LifecyclePaused) })
	refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": one}, protocol.CodePaused)
	popup.Click(t, "#pause")
	e.WaitFor(t, "the host to resume", 10*time.Second, func() bool { return lifecycleOf(t, e) == string(protocol.LifecycleReady) })
	popup.WaitText(t, "Pause agents", 5*time.Second)
	ok(t, s, protocol.MethodTabs, nil)
}

// Chrome restarted while paused comes back paused: the extension restores
// its Pause before the hello, so nothing is admitted before (or after)
// reconciliation until the user resumes.
func TestPauseSurvivesBrowserRestart(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("One")})
	agenttab(t, e, "pause")
	e.RestartBrowser(t)
	if lc := lifecycleOf(t, e); lc != string(protocol.LifecyclePaused) {
		t.Fatalf("after the restart the host is %s, want paused", lc)
	}
	var paused bool
	e.Eval(t, `chrome.storage.local.get("paused").then(v => v.paused === true)`, &paused)
	if !paused {
		t.Error("the extension lost its Pause across the restart")
	}
	s := e.MCP(t)
	refused(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}, protocol.CodePaused)
	agenttab(t, e, "resume")
	ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
}

// The popup's automation switch asks Chrome for the optional scripting
// permission on the user's click and gives it back when cleared; turning
// it off also detaches AgentTab's debugger from the task's tabs.
func TestAutomationSwitchInThePopup(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Worked on")})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	snap(t, s, tab, nil) // attaches the debugger
	attached := func() bool {
		var n int
		e.Eval(t, `chrome.debugger.getTargets().then(ts => ts.filter(x => x.attached && x.type === "page" && x.url.startsWith(`+strconv.Quote(base)+`)).length)`, &n)
		return n > 0
	}
	if scriptingGranted(t, e) || !attached() {
		t.Fatalf("before: scripting granted %v, debugger attached %v; want false, true", scriptingGranted(t, e), attached())
	}
	setAutomation(t, e, true)
	setAutomation(t, e, false)
	e.WaitFor(t, "the debugger to detach", 5*time.Second, func() bool { return !attached() })
	// Page work attaches again when it needs to.
	snap(t, s, tab, nil)
}
