package host

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// An explicit 0 for an optional count is refused with invalid_params,
// naming the field and its range, and nothing reaches the extension; before
// issue 9 it silently meant the default. expected_page_revision 0 says what
// is wrong with it.
func TestZeroCountsAreRefused(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	waitStep := func(w map[string]any) map[string]any {
		return map[string]any{"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": w}}}
	}
	for _, tc := range []struct {
		name, method string
		params       map[string]any
		native       string
		want         []string // in the message
	}{
		{"wait timeout_ms", protocol.MethodWait, map[string]any{"tab": tab, "condition": map[string]any{"until": "load", "timeout_ms": 0}},
			protocol.NativeWait, []string{"timeout_ms", "between 1 and 30000", "omitted for 5000"}},
		{"wait idle_ms", protocol.MethodWait, map[string]any{"tab": tab, "condition": map[string]any{"until": "network_idle", "idle_ms": 0}},
			protocol.NativeWait, []string{"idle_ms", "between 1 and 10000", "omitted for 500"}},
		{"wait step timeout_ms", protocol.MethodAct, waitStep(map[string]any{"until": "load", "timeout_ms": 0}),
			protocol.NativeAct, []string{"step 0 (wait)", "timeout_ms", "between 1 and 30000"}},
		{"snapshot max_chars", protocol.MethodSnapshot, map[string]any{"tab": tab, "max_chars": 0},
			protocol.NativeSnapshot, []string{"max_chars", "between 1 and 2000000", "omitted for 40000"}},
		{"adopt timeout_ms", protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": 0},
			protocol.NativeAdopt, []string{"timeout_ms", "between 1 and 300000", "omitted for 60000"}},
		{"open timeout_ms", protocol.MethodOpen, map[string]any{"mode": "create", "url": "https://example.com/", "timeout_ms": 0},
			protocol.NativeOpen, []string{"timeout_ms is only for mode adopt_active"}},
		{"expected_page_revision", protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 0, "actions": []any{map[string]any{"kind": "reload"}}},
			protocol.NativeAct, []string{"expected_page_revision", "start at 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := count(r.ext.seen(), tc.native)
			e := callErr(t, c.Client, tc.method, tc.params)
			if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
				t.Fatalf("got %+v, want invalid_params, not_started, with a recovery", e)
			}
			for _, w := range tc.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("message %q does not say %q", e.Message, w)
				}
			}
			if n := count(r.ext.seen(), tc.native); n != before {
				t.Errorf("the refused call reached the extension (%s)", tc.native)
			}
		})
	}
}

// Omitted, the same counts take their defaults, which is what the
// extension is asked for.
func TestOmittedCountsTakeTheirDefaults(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	rpc[protocol.WaitResult](t, c.Client, protocol.MethodWait, map[string]any{"tab": tab, "condition": map[string]any{"until": "network_idle"}})
	var wait protocol.ExtWaitParams
	if err := json.Unmarshal(r.ext.lastParams(protocol.NativeWait), &wait); err != nil {
		t.Fatal(err)
	}
	if wait.Condition.TimeoutMs == nil || *wait.Condition.TimeoutMs != protocol.DefaultWaitMs || wait.Condition.IdleMs == nil || *wait.Condition.IdleMs != protocol.DefaultIdleMs {
		t.Errorf("the extension was asked to wait %s", r.ext.lastParams(protocol.NativeWait))
	}
	r.ext.mu.Lock()
	r.ext.pageText = strings.Repeat("x", protocol.DefaultMaxChars+10)
	r.ext.mu.Unlock()
	snap := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, map[string]any{"tab": tab})
	if snap.Coverage.End != protocol.DefaultMaxChars {
		t.Errorf("window %+v, want %d characters", snap.Coverage, protocol.DefaultMaxChars)
	}
}
