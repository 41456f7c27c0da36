package mcpserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

// An optional count the agent gives as 0 reaches the host as 0, for the
// host to refuse; one it leaves out stays out, for the host's default.
// Before issue 9 both arrived as "absent" and 0 silently meant the default.
func TestZeroCountsReachTheHost(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) { return map[string]any{"outcome": "observed"}, nil }}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	waitStep := func(w map[string]any) map[string]any {
		return map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": w}}}
	}
	for _, tc := range []struct {
		name, tool    string
		omitted, zero map[string]any
		path          []string // where the host finds the count
	}{
		{"wait timeout_ms", protocol.MethodWait, map[string]any{"tab": "tab_1", "until": "load"},
			map[string]any{"tab": "tab_1", "until": "load", "timeout_ms": 0}, []string{"condition", "timeout_ms"}},
		{"wait idle_ms", protocol.MethodWait, map[string]any{"tab": "tab_1", "until": "network_idle"},
			map[string]any{"tab": "tab_1", "until": "network_idle", "idle_ms": 0}, []string{"condition", "idle_ms"}},
		{"wait step timeout_ms", protocol.MethodAct, waitStep(map[string]any{"until": "load"}),
			waitStep(map[string]any{"until": "load", "timeout_ms": 0}), []string{"actions", "wait", "timeout_ms"}},
		{"snapshot max_chars", protocol.MethodSnapshot, map[string]any{"tab": "tab_1"},
			map[string]any{"tab": "tab_1", "max_chars": 0}, []string{"max_chars"}},
		{"adopt timeout_ms", protocol.MethodOpen, map[string]any{"mode": "adopt_active"},
			map[string]any{"mode": "adopt_active", "timeout_ms": 0}, []string{"timeout_ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			callTool(t, cs, tc.tool, tc.omitted)
			if v, found := at(core.last(tc.tool), tc.path); found {
				t.Errorf("omitted, it reached the host as %v", v)
			}
			callTool(t, cs, tc.tool, tc.zero)
			if v, found := at(core.last(tc.tool), tc.path); !found || !cmp.Equal(v, float64(0)) {
				t.Errorf("given as 0, it reached the host as %v (present %v): %v", v, found, core.last(tc.tool))
			}
		})
	}
}

// at reads the value at path in a decoded JSON object, taking the first
// element of an array on the way.
func at(v any, path []string) (any, bool) {
	for _, k := range path {
		if list, ok := v.([]any); ok && len(list) > 0 {
			v = list[0]
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[k]; !ok {
			return nil, false
		}
	}
	return v, true
}
