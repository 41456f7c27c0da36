package host

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// A UUIDv7 the tests use as a client's key (version 7, RFC 9562 variant).
const testKeyV7 = "0190b2a0-0000-7000-8000-0000000000c1"

// idemRecords reads what state.db holds for the task's idempotency keys.
func idemRecords(t *testing.T, h *Host, taskID string) []store.IdemRecord {
	t.Helper()
	recs, err := h.store.IdempotencyRecords(context.Background(), taskID)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// Spec 000: "Mutations use UUIDv7 idempotency keys." A Core client's key
// that is not one is refused with invalid_params, not_started, before
// anything happens: no task is made, no record is written, nothing reaches
// the extension, for browser_open, browser_act and browser_finish alike.
// Only the canonical lower-case form is a key: one UUID, one spelling.
func TestIdempotencyKeyMustBeAUUIDv7(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	owner := r.client()
	opened := rpc[protocol.OpenResult](t, owner, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create", IdempotencyKey: testKeyV7})
	before := len(idemRecords(t, h, opened.Task.ID))

	for _, tc := range []struct{ name, key string }{
		{"a UUIDv4", "0190b2a0-0000-4000-8000-0000000000c1"},
		{"a UUIDv1", "0190b2a0-0000-1000-8000-0000000000c1"},
		{"version 7 with the wrong variant", "0190b2a0-0000-7000-c000-0000000000c1"},
		{"the nil UUID", "00000000-0000-0000-0000-000000000000"},
		{"not a UUID", "retry-1"},
		{"a UUIDv7 without hyphens", strings.ReplaceAll(testKeyV7, "-", "")},
		{"a UUIDv7 in braces", "{" + testKeyV7 + "}"},
		{"a UUIDv7 as a URN", "urn:uuid:" + testKeyV7},
		{"a UUIDv7 with a space", " " + testKeyV7},
		{"a UUIDv7 in upper case", strings.ToUpper(testKeyV7)},
		{"a long key", strings.Repeat("k", 200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(e *protocol.Error) {
				t.Helper()
				if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" ||
					!strings.Contains(e.Message, "idempotency_key") || !strings.Contains(e.Message, "UUIDv7") {
					t.Errorf("got %+v, want invalid_params, not_started, naming idempotency_key and UUIDv7, with recovery", e)
				}
			}
			// A fresh connection: a refused open must not even make its task.
			c := r.client()
			check(callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/" + tc.name, Mode: "create", IdempotencyKey: tc.key}))
			check(callErr(t, c, protocol.MethodFinish, protocol.FinishParams{IdempotencyKey: tc.key}))
			if st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil); st.TaskID != "" {
				t.Errorf("a refused key made task %s", st.TaskID)
			}
			check(callErr(t, owner, protocol.MethodAct, protocol.ActParams{Tab: opened.Tab.Tab, ExpectedPageRevision: 1, IdempotencyKey: tc.key,
				Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}}))
			check(callErr(t, owner, protocol.MethodFinish, protocol.FinishParams{IdempotencyKey: tc.key}))
		})
	}
	seen := r.ext.seen()
	if n := count(seen, protocol.NativeOpen); n != 1 {
		t.Errorf("the extension was asked for %d opens, want only the first (valid) one", n)
	}
	if n := count(seen, protocol.NativeAct) + count(seen, protocol.NativeFinish); n != 0 {
		t.Errorf("a refused key reached the extension: %v", seen)
	}
	if got := idemRecords(t, h, opened.Task.ID); len(got) != before {
		t.Errorf("refused keys were recorded: %+v", got)
	}
	if tabs := rpc[protocol.TabsResult](t, owner, protocol.MethodTabs, nil); len(tabs.Tabs) != 1 {
		t.Errorf("the task's tabs changed: %+v", tabs.Tabs)
	}
}

// A mutation without a key still gets a durable started record before
// anything reaches Chrome (spec 000: "a durable started record after a
// crash returns unknown and is never replayed"), under a UUIDv7 the host
// makes. Before issue 10 such a call ran with no record at all.
func TestMutationWithoutAKeyIsRecorded(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})

	// The act is held by the extension: its record is already there.
	r.ext.mu.Lock()
	r.ext.actDelay = 300 * time.Millisecond
	r.ext.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		done <- c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: opened.Tab.Tab, ExpectedPageRevision: 1,
			Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}}, nil)
	}()
	waitFor(t, func() bool { return count(r.ext.seen(), protocol.NativeAct) == 1 })
	recs := idemRecords(t, h, opened.Task.ID)
	if len(recs) != 2 || recs[1].Method != protocol.MethodAct || recs[1].State != store.IdemStarted {
		t.Fatalf("while the act is in Chrome the task's records are %+v, want the open's and the act's started one", recs)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rpc[protocol.FinishResult](t, c, protocol.MethodFinish, nil)

	recs = idemRecords(t, h, opened.Task.ID)
	var methods []string
	for _, rec := range recs {
		methods = append(methods, rec.Method)
		if id, err := uuid.Parse(rec.Key); err != nil || id.Version() != 7 || id.String() != rec.Key {
			t.Errorf("the host's key %q is not a lower-case UUIDv7", rec.Key)
		}
		if rec.State != store.IdemCompleted {
			t.Errorf("%s's record is %s, want completed", rec.Method, rec.State)
		}
	}
	if want := []string{protocol.MethodOpen, protocol.MethodAct, protocol.MethodFinish}; strings.Join(methods, " ") != strings.Join(want, " ") {
		t.Errorf("records for %v, want one per mutation %v", methods, want)
	}
	if recs[0].Key == recs[1].Key || recs[1].Key == recs[2].Key {
		t.Errorf("two calls share a key: %+v", recs)
	}
}
