package harness

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// The user's idle state as chrome.idle reports it, driven the way a
// desktop drives it. Observed in Chromium 156 (Debian) on Xvfb:
//   - chrome.idle.queryState(threshold) reads the X server's idle time
//     (the MIT-SCREEN-SAVER extension: time since the last X input), so it
//     is "idle" once no X input came for threshold seconds (each headful
//     Env has its own Xvfb, whose idle time runs from its start) and
//     "active" again after any X input (xdotool), within the same call;
//   - it is "locked" while the X screen saver is on (`xset s activate`)
//     and "active" again after `xset s reset`;
//   - DevTools' Emulation.setIdleOverride does not reach it: the command
//     does not exist on the browser or the service worker target, and on a
//     page target it is accepted but chrome.idle still answers "active"
//     (it overrides the Idle Detection API of that page only);
//   - headless Chromium always answers "active" (no X server).
// The threshold is the caller's (AgentTab reads queryState(60), spec 000
// "idle state"); nothing shortens it, so reaching "idle" costs the whole
// threshold of real time without input.

// UserIdleState answers chrome.idle.queryState(thresholdS) from the
// extension's service worker.
func (e *Env) UserIdleState(t testing.TB, thresholdS int) string {
	t.Helper()
	var s string
	e.Eval(t, fmt.Sprintf(`chrome.idle.queryState(%d)`, thresholdS), &s)
	return s
}

// UserActs is the user touching the mouse: an X pointer move (1 px and
// back) resets the X server's idle time, so chrome.idle answers "active".
func (e *Env) UserActs(t testing.TB) {
	t.Helper()
	e.x11(t, "xdotool", "mousemove_relative", "--sync", "1", "1", "mousemove_relative", "--sync", "--", "-1", "-1")
}

// LockScreen turns the X screen saver on: chrome.idle answers "locked".
func (e *Env) LockScreen(t testing.TB) { t.Helper(); e.x11(t, "xset", "s", "activate") }

// UnlockScreen turns it off again: chrome.idle answers "active".
func (e *Env) UnlockScreen(t testing.TB) { t.Helper(); e.x11(t, "xset", "s", "reset") }

// WaitUserIdle waits, touching nothing, until chrome.idle.queryState
// (thresholdS) answers "idle": up to thresholdS seconds after the last X
// input.
func (e *Env) WaitUserIdle(t testing.TB, thresholdS int) {
	t.Helper()
	e.WaitFor(t, fmt.Sprintf("chrome.idle.queryState(%d) to answer idle", thresholdS), time.Duration(thresholdS+5)*time.Second, func() bool {
		return e.UserIdleState(t, thresholdS) == "idle"
	})
}

// x11 runs an X client on the Env's own display.
func (e *Env) x11(t testing.TB, name string, args ...string) {
	t.Helper()
	if e.display == "" {
		t.Fatalf("%s needs an Env from StartHeadful (headless Chromium has no idle state to drive)", name)
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+e.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s (scripts/deps.sh installs xdotool and x11-xserver-utils)", name, args, err, out)
	}
}
