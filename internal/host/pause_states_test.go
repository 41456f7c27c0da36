package host

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Pause is not an optimistic toggle (spec 001): while an act is in flight
// the host says pausing, not paused, and has told the extension at once
// (its popup shows pausing); it says paused, and tells the extension the
// Pause is in force, only once the act has settled with its own outcome
// and the Pause is stored.
func TestPauseIsPausingUntilDispatchedWorkSettles(t *testing.T) {
	r := startRig(t)
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: protocol.OpenModeCreate})
	hold := make(chan struct{})
	r.ext.mu.Lock()
	r.ext.pause.actHold = hold
	r.ext.mu.Unlock()
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)

	acted := make(chan error, 1)
	go func() {
		acted <- c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: opened.Tab.Tab, ExpectedPageRevision: opened.Tab.PageRevision,
			Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}}, nil)
	}()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativeAct) == 1 })
	type answer struct {
		res protocol.PauseResult
		err error
	}
	paused := make(chan answer, 1)
	go func() {
		var a answer
		a.err = r.client().Call(context.Background(), protocol.MethodPause, nil, &a.res)
		paused <- a
	}()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativePausing) == 1 })
	if st := rpc[protocol.StatusResult](t, r.client(), protocol.MethodStatus, nil); st.Lifecycle != protocol.LifecyclePausing {
		t.Errorf("while the act is in flight the host says %s, want pausing", st.Lifecycle)
	}
	if e := callErr(t, r.client(), protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/2", Mode: protocol.OpenModeCreate}); e.Code != protocol.CodePaused || e.Outcome != protocol.OutcomeNotStarted {
		t.Errorf("new work while pausing: %+v, want paused / not_started", e)
	}
	select {
	case a := <-paused:
		t.Fatalf("pause answered %+v (%v) while the act was in flight", a.res, a.err)
	default:
	}

	release()
	if err := <-acted; err != nil {
		t.Errorf("the dispatched act failed: %v", err)
	}
	a := <-paused
	if a.err != nil || !a.res.Paused || a.res.Lifecycle != protocol.LifecyclePaused {
		t.Fatalf("pause answered %+v, %v", a.res, a.err)
	}
	if st := rpc[protocol.StatusResult](t, r.client(), protocol.MethodStatus, nil); st.Lifecycle != protocol.LifecyclePaused {
		t.Errorf("after the pause the host says %s", st.Lifecycle)
	}
	r.ext.mu.Lock()
	timeline := strings.Join(r.ext.timeline, ", ")
	r.ext.mu.Unlock()
	pausing, answered, pause := strings.Index(timeline, "arrived pausing"), strings.Index(timeline, "answered act"), strings.Index(timeline, "arrived pause,")
	if !(pausing >= 0 && pausing < answered && answered < pause) {
		t.Errorf("want pausing told before the act settled and pause after it: %s", timeline)
	}
	if count(r.ext.seen(), protocol.NativeOpen) != 1 {
		t.Error("work reached the extension while pausing")
	}
}

// An adoption request waiting for the user's Allow is not dispatched work:
// a Pause ends it at once, paused and not started, so `agenttab pause`
// does not wait out the request's timeout (60 s here).
func TestPauseEndsAPendingAdoptionAtOnce(t *testing.T) {
	r := startRig(t)
	c := r.client()
	timeout := 60_000
	adopted := make(chan error, 1)
	go func() {
		adopted <- c.Call(context.Background(), protocol.MethodOpen, protocol.OpenParams{Mode: protocol.OpenModeAdoptActive, TimeoutMs: &timeout}, nil)
	}()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativeAdopt) == 1 })

	// A hang check, not a speed assertion: well before the adoption's
	// own 60 s timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var p protocol.PauseResult
	if err := r.client().Call(ctx, protocol.MethodPause, nil, &p); err != nil || !p.Paused {
		t.Fatalf("pause with an adoption pending: %+v, %v", p, err)
	}
	select {
	case err := <-adopted:
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Code != protocol.CodePaused || pe.Outcome != protocol.OutcomeNotStarted {
			t.Errorf("the pending adoption ended %v, want paused / not_started", err)
		}
	case <-ctx.Done():
		t.Fatal("the adoption request was still waiting after the pause")
	}
	r.ext.mu.Lock()
	owned := len(r.ext.owner)
	r.ext.mu.Unlock()
	if owned != 0 {
		t.Errorf("the extension owns %d tabs after a cancelled adoption", owned)
	}
}
