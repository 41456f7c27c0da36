package host

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// Spec 001: revocation rejects queued work before it is dispatched. An act
// waits for the task's turn behind a slow one; the user closes its tab
// meanwhile; when its turn comes it fails not_owned, not_started, and
// never reaches the extension.
func TestRevocationRejectsQueuedWork(t *testing.T) {
	r := startRig(t)
	c := r.client()
	slow := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/slow", Mode: "create"})
	doomed := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/doomed", Mode: "create"})
	doomedID := chromeIDOf(t, r, "https://example.com/doomed")
	settle := queueBehindSlowAct(t, r, c, slow.Tab.Tab, doomed.Tab.Tab)
	r.ext.userCloses(doomedID)
	_, queuedErr := settle()

	var pe *protocol.Error
	if !errors.As(queuedErr, &pe) || pe.Code != protocol.CodeNotOwned || pe.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("the queued act on the revoked tab: %v, want not_owned / not_started", queuedErr)
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 1 {
		t.Errorf("the extension was asked for %d acts, want only the first", n)
	}
}

// queueBehindSlowAct starts a 300 ms act on the tab running, waits until
// the extension has it, and queues an act on the tab queued behind it (the
// same task's order). settle waits for both and returns their errors.
func queueBehindSlowAct(t *testing.T, r *rig, c *corerpc.Client, running, queued string) (settle func() (runningErr, queuedErr error)) {
	t.Helper()
	r.ext.mu.Lock()
	r.ext.actDelay = 300 * time.Millisecond
	r.ext.mu.Unlock()
	act := func(tab, key string) error {
		return c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1,
			Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}, IdempotencyKey: key}, nil)
	}
	var wg sync.WaitGroup
	var errs [2]error
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = act(running, "0190b2a0-0000-7000-8000-0000000000e1") }()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativeAct) == 1 })
	go func() { defer wg.Done(); errs[1] = act(queued, "0190b2a0-0000-7000-8000-0000000000e2") }()
	time.Sleep(50 * time.Millisecond) // the second act now waits for the task's turn
	return func() (error, error) {
		wg.Wait()
		return errs[0], errs[1]
	}
}
