package host

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

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
	r.ext.mu.Lock()
	r.ext.actDelay = 300 * time.Millisecond
	r.ext.mu.Unlock()

	click := []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}
	var wg sync.WaitGroup
	var queuedErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: slow.Tab.Tab, ExpectedPageRevision: 1, Actions: click}, nil)
	}()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativeAct) == 1 })
	go func() {
		defer wg.Done()
		queuedErr = c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: doomed.Tab.Tab, ExpectedPageRevision: 1, Actions: click}, nil)
	}()
	time.Sleep(50 * time.Millisecond) // the second act now waits for the task's turn
	r.ext.userCloses(doomedID)
	wg.Wait()

	var pe *protocol.Error
	if !errors.As(queuedErr, &pe) || pe.Code != protocol.CodeNotOwned || pe.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("the queued act on the revoked tab: %v, want not_owned / not_started", queuedErr)
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 1 {
		t.Errorf("the extension was asked for %d acts, want only the first", n)
	}
}
