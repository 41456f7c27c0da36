package e2e

import (
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
)

// Issue 12: the user's idle state (chrome.idle, which every handoff answer
// carries) changes when the test drives the desktop as a user would: the
// screen saver locks and unlocks, time passes without input, the mouse
// moves. Thresholds are 15 s, chrome.idle's least, to keep the test short;
// AgentTab's own 60 s works the same, only longer.
func TestHeadfulUserIdleState(t *testing.T) {
	e := harness.StartHeadful(t)
	const threshold = 15
	e.UserActs(t)
	if got := e.UserIdleState(t, threshold); got != "active" {
		t.Fatalf("after a mouse move: %q, want active", got)
	}
	e.LockScreen(t)
	if got := e.UserIdleState(t, threshold); got != "locked" {
		t.Fatalf("with the screen saver on: %q, want locked", got)
	}
	e.UnlockScreen(t)
	if got := e.UserIdleState(t, threshold); got != "active" {
		t.Fatalf("with the screen saver off again: %q, want active", got)
	}
	start := time.Now()
	e.WaitUserIdle(t, threshold)
	idleAfter := time.Since(start)
	e.UserActs(t)
	if got := e.UserIdleState(t, threshold); got != "active" {
		t.Fatalf("after a mouse move: %q, want active", got)
	}
	t.Logf("idle after %s without input (threshold %d s)", idleAfter.Round(100*time.Millisecond), threshold)
}
