package host

import (
	"bytes"
	"os"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// kept records the capabilities a client was issued.
type kept struct {
	mu   sync.Mutex
	caps []string
}

func (k *kept) keep(c string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.caps = append(k.caps, c)
	return nil
}

func (k *kept) last(t *testing.T) string {
	t.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.caps) == 0 {
		t.Fatal("no capability was issued")
	}
	return k.caps[len(k.caps)-1]
}

func resume(t *testing.T, c *corerpc.Client, capability string) protocol.ResumeResult {
	t.Helper()
	return rpc[protocol.ResumeResult](t, c, protocol.MethodResume, protocol.ResumeParams{Capability: capability})
}

// Spec 000/001: a capability resumes its task on a new connection and is
// rotated; once the rotation is confirmed the old one fails; an invalid
// one gets nothing (the next browser request makes a new, empty task);
// no capability value reaches the audit or the host log.
func TestResumeCapabilities(t *testing.T) {
	r := startRig(t)
	var ka kept
	a := r.clientKeeping(ka.keep)
	opened := rpc[protocol.OpenResult](t, a, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	first := ka.last(t)
	if len(first) != 43 {
		t.Errorf("capability of %d characters, want 43 (256 bits, base64url)", len(first))
	}

	var kb kept
	b := r.clientKeeping(kb.keep)
	res := resume(t, b, first)
	if !res.Resumed || res.Task == nil || res.Task.ID != opened.Task.ID {
		t.Fatalf("resume: %+v, want task %s", res, opened.Task.ID)
	}
	second := kb.last(t)
	if second == first {
		t.Fatal("the resume did not rotate the capability")
	}
	tabs := rpc[protocol.TabsResult](t, b, protocol.MethodTabs, nil)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab != opened.Tab.Tab {
		t.Errorf("the resumed connection sees %+v, want the task's tab %s", tabs.Tabs, opened.Tab.Tab)
	}
	// The first connection lost the task: its next request starts a new one.
	if got := rpc[protocol.TabsResult](t, a, protocol.MethodTabs, nil); got.Task.ID == opened.Task.ID || len(got.Tabs) != 0 {
		t.Errorf("the old connection still works on the resumed task: %+v", got)
	}

	// The rotation was confirmed, so the first capability is spent.
	if res := resume(t, r.client(), first); res.Resumed {
		t.Errorf("the replaced capability resumed %+v", res)
	}
	for _, bad := range []string{"not-a-capability", flipLast(second)} {
		c := r.client()
		if res := resume(t, c, bad); res.Resumed {
			t.Errorf("capability %q resumed %+v", bad, res)
		}
		if got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil); got.Task.ID == opened.Task.ID || len(got.Tabs) != 0 {
			t.Errorf("after an invalid resume: %+v, want a new empty task", got)
		}
	}
	var kc kept
	if res := resume(t, r.clientKeeping(kc.keep), second); !res.Resumed || res.Task.ID != opened.Task.ID {
		t.Errorf("the confirmed replacement did not resume: %+v", res)
	}

	for _, f := range []string{r.dir.Audit(), r.dir.HostLog(), r.dir.DB()} {
		data, _ := os.ReadFile(f)
		for _, c := range []string{first, second, kc.last(t)} {
			if bytes.Contains(data, []byte(c)) {
				t.Errorf("%s contains a capability", f)
			}
		}
	}
}

// Until the client confirms a capability, the host admits nothing else on
// the connection; resume works only before browser work; bad input is
// refused with nothing changed.
func TestCapabilityBarrierAndBadInput(t *testing.T) {
	r := startRig(t)
	// A client that never confirms (corerpc.Client retires a connection
	// whose capability it could not keep, so the host's barrier is
	// provoked line by line).
	unconfirmed := r.raw()
	unconfirmed.send(1, rawRequest{protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"}})
	if a := unconfirmed.read(1)[1]; a.Capability == "" || a.Error != nil {
		t.Fatalf("the open brought no capability: %+v", a)
	}
	unconfirmed.send(2, rawRequest{protocol.MethodTabs, struct{}{}}, rawRequest{protocol.MethodStatus, struct{}{}})
	got := unconfirmed.read(2)
	if a := got[2]; a.Error == nil || a.Error.Data.Code != protocol.CodeCapabilityUnconfirmed || a.Error.Data.Outcome != protocol.OutcomeNotStarted {
		t.Errorf("before confirmation: %+v, want capability_unconfirmed, not_started", a)
	}
	if a := got[3]; a.Error != nil {
		t.Errorf("status before confirmation: %+v, want it available", a.Error.Data)
	}

	c := r.client()
	for _, tc := range []struct {
		name   string
		method string
		params any
		want   protocol.ErrorCode
	}{
		{"resume without a capability", protocol.MethodResume, map[string]any{}, protocol.CodeInvalidParams},
		{"resume with an overlong capability", protocol.MethodResume, protocol.ResumeParams{Capability: string(bytes.Repeat([]byte("a"), 200))}, protocol.CodeInvalidParams},
		{"resume with an unknown field", protocol.MethodResume, map[string]any{"capability": "x", "task_id": "task_1"}, protocol.CodeInvalidParams},
		{"confirm with nothing to confirm", protocol.MethodCapabilityConfirm, nil, protocol.CodeInvalidRequest},
		{"confirm with params", protocol.MethodCapabilityConfirm, map[string]any{"capability": "x"}, protocol.CodeInvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if e := callErr(t, c, tc.method, tc.params); e.Code != tc.want || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
				t.Fatalf("got %+v, want %s, not_started, with recovery", e, tc.want)
			}
		})
	}
	rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
	if e := callErr(t, c, protocol.MethodResume, protocol.ResumeParams{Capability: "abc"}); e.Code != protocol.CodeInvalidRequest {
		t.Errorf("resume after browser work: %+v, want invalid_request", e)
	}
}

// flipLast changes a capability's last character: one character off.
func flipLast(c string) string {
	last := "A"
	if c[len(c)-1] == 'A' {
		last = "B"
	}
	return c[:len(c)-1] + last
}

// browser_finish as a connection's first call makes a task and ends it at
// once: the capability issued with it is confirmed without error, and the
// connection keeps working.
func TestFinishAsFirstCall(t *testing.T) {
	r := startRig(t)
	c := r.client()
	for range 2 {
		if fin := rpc[protocol.FinishResult](t, c, protocol.MethodFinish, nil); fin.Outcome != protocol.OutcomeConfirmed {
			t.Fatalf("finish: %+v", fin)
		}
	}
	if got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil); len(got.Tabs) != 0 {
		t.Errorf("after two finishes: %+v", got)
	}
}
