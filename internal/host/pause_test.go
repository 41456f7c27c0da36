package host

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Pause is a barrier: it closes admission, lets the act already running
// settle, rejects the act queued behind it as not_started, and reports
// only once the host and the extension have stored it. Resume reconciles
// (a tab closed while paused is revoked) before admission reopens.
func TestPauseIsABarrier(t *testing.T) {
	r := startRig(t)
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	second := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/2", Mode: "create"})
	settle := queueBehindSlowAct(t, r, c, opened.Tab.Tab, opened.Tab.Tab)
	p := rpc[protocol.PauseResult](t, r.client(), protocol.MethodPause, nil)
	runningErr, queuedErr := settle()
	if !p.Paused || p.Lifecycle != protocol.LifecyclePaused {
		t.Fatalf("pause answered %+v", p)
	}
	if runningErr != nil {
		t.Errorf("the dispatched act failed: %v", runningErr)
	}
	r.ext.mu.Lock()
	timeline := strings.Join(r.ext.timeline, ", ")
	r.ext.mu.Unlock()
	if !strings.Contains(timeline, "answered act, arrived pause") {
		t.Errorf("the pause did not wait for the dispatched act to settle: %s", timeline)
	}
	var pe *protocol.Error
	if !errors.As(queuedErr, &pe) || pe.Code != protocol.CodePaused || pe.Outcome != protocol.OutcomeNotStarted {
		t.Errorf("the queued act: %v, want paused / not_started", queuedErr)
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 1 {
		t.Errorf("the extension ran %d acts, want only the dispatched one", n)
	}
	if !r.ext.paused {
		t.Error("the extension was not told to pause")
	}
	e := callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/3", Mode: "create"})
	if e.Code != protocol.CodePaused || e.Lifecycle != protocol.LifecyclePaused || e.Recovery == "" {
		t.Errorf("open while paused: %+v", e)
	}
	if st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil); st.Lifecycle != protocol.LifecyclePaused {
		t.Errorf("status says %s while paused", st.Lifecycle)
	}

	// The user closes one tab while paused; Resume revokes it first.
	r.ext.mu.Lock()
	for id, tab := range r.ext.tabs {
		if tab.URL == "https://example.com/2" {
			delete(r.ext.tabs, id)
		}
	}
	r.ext.mu.Unlock()
	seenBefore := len(r.ext.seen())
	res := rpc[protocol.PauseResult](t, r.client(), protocol.MethodUnpause, nil)
	if res.Paused || res.Lifecycle != protocol.LifecycleReady || res.Revoked != 1 {
		t.Errorf("resume answered %+v, want ready with 1 revoked", res)
	}
	if got := r.ext.seen()[seenBefore:]; len(got) != 2 || got[0] != protocol.NativeReconcile || got[1] != protocol.NativeUnpause {
		t.Errorf("resume asked the extension %v, want reconcile then unpause", got)
	}
	if e := callErr(t, c, protocol.MethodTabs, protocol.TabsParams{Tab: second.Tab.Tab}); e.Code != protocol.CodeNotOwned {
		t.Errorf("the tab closed while paused: %+v, want not_owned", e)
	}
	rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
}

// A Pause persists: a host restarted on the same state directory is
// paused before any work, and so is one whose extension restored a Pause.
func TestPauseSurvivesRestartAndEitherSideWins(t *testing.T) {
	dir := tempStateDir(t)
	r := startRig(t, withDir(dir))
	rpc[protocol.PauseResult](t, r.client(), protocol.MethodPause, nil)
	r.stop()

	again := startRig(t, withDir(dir))
	if st := rpc[protocol.StatusResult](t, again.client(), protocol.MethodStatus, nil); st.Lifecycle != protocol.LifecyclePaused {
		t.Fatalf("after a restart the host is %s, want paused", st.Lifecycle)
	}
	if !again.ext.paused {
		t.Error("the extension that forgot the Pause was not told")
	}
	rpc[protocol.PauseResult](t, again.client(), protocol.MethodUnpause, nil)
	again.stop()

	third := startRig(t, withDir(dir), withExtensionPaused())
	c := third.client()
	if e := callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"}); e.Code != protocol.CodePaused {
		t.Fatalf("with the extension's Pause restored: %+v, want paused", e)
	}
	if count(third.ext.seen(), protocol.NativeOpen) != 0 {
		t.Error("work reached the extension while paused")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
