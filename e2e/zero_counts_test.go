package e2e

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// An explicit 0 for timeout_ms, idle_ms or max_chars is refused with
// invalid_params naming the field and its range, and so is
// expected_page_revision 0, saying what a revision is; a batch holding such
// a step runs none of its steps (the page's counter stays at 0). Before
// issue 9 a 0 silently meant the default, and the batch ran.
func TestZeroCountsAreRefused(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Counter</title>
<button onclick="document.getElementById('n').textContent = +document.getElementById('n').textContent + 1">Count</button>
<p>clicks: <span id="n">0</span></p>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	click := step("click", "ref", refOf(t, text, "button", "Count"))

	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		says       []string
	}{
		{"wait timeout_ms", protocol.MethodWait, map[string]any{"tab": tab, "until": "load", "timeout_ms": 0}, []string{"timeout_ms", "between 1 and 30000"}},
		{"wait idle_ms", protocol.MethodWait, map[string]any{"tab": tab, "until": "network_idle", "idle_ms": 0}, []string{"idle_ms", "between 1 and 10000"}},
		{"snapshot max_chars", protocol.MethodSnapshot, map[string]any{"tab": tab, "max_chars": 0}, []string{"max_chars", "between 1 and 2000000"}},
		{"adopt timeout_ms", protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": 0}, []string{"timeout_ms", "between 1 and 300000"}},
		{"a batch with a wait step's timeout_ms", protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev,
			"actions": []any{click, step("wait", "wait", map[string]any{"until": "load", "timeout_ms": 0})}}, []string{"step 1 (wait)", "timeout_ms"}},
		{"expected_page_revision", protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 0, "actions": []any{click}},
			[]string{"expected_page_revision", "start at 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := refused(t, s, tc.tool, tc.args, protocol.CodeInvalidParams)
			msg, _ := res["message"].(string)
			for _, w := range tc.says {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not say %q", msg, w)
				}
			}
			if res["outcome"] != string(protocol.OutcomeNotStarted) {
				t.Errorf("outcome %v, want not_started", res["outcome"])
			}
		})
	}
	after, _, _ := snap(t, s, tab, nil)
	if !strings.Contains(after, "clicks: 0") {
		t.Errorf("a refused batch clicked:\n%s", after)
	}
	if tabs := listed(t, ok(t, s, protocol.MethodTabs, nil)); len(tabs) != 1 {
		t.Errorf("the task owns %d tabs after the refusals, want 1", len(tabs))
	}
}
