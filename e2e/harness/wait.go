package harness

import (
	"testing"
	"time"
)

// pollInterval is short because the things tests wait for (a tab event, a
// group change) take tens of milliseconds in Chromium (notes/chromium.md).
const pollInterval = 50 * time.Millisecond

// WaitFor polls cond until it is true, and fails the test naming what it
// waited for when timeout passes first. cond runs on the test goroutine, so
// it may call t-based helpers such as ChromeTabs.
func (e *Env) WaitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(pollInterval)
	}
}
