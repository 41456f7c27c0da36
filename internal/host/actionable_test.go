package host

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// actionable_timeout_ms (issue 11): out of its range it is refused with
// invalid_params before anything reaches the extension; omitted, the
// extension is asked for the default; 0 (refuse at once) and any value in
// range are passed on as given.
func TestActionableTimeoutIsCheckedAndPassedOn(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	click := []any{map[string]any{"kind": "click", "ref": "e1"}}
	for _, bad := range []int{-1, protocol.MaxActionableMs + 1} {
		before := count(r.ext.seen(), protocol.NativeAct)
		e := callErr(t, c.Client, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1, "actions": click, "actionable_timeout_ms": bad})
		if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || !strings.Contains(e.Message, "actionable_timeout_ms must be between 0 and 30000") {
			t.Errorf("actionable_timeout_ms %d: %+v, want invalid_params naming the range", bad, e)
		}
		if count(r.ext.seen(), protocol.NativeAct) != before {
			t.Errorf("actionable_timeout_ms %d reached the extension", bad)
		}
	}
	for _, tc := range []struct {
		given any
		want  int
	}{{nil, protocol.DefaultActionableMs}, {0, 0}, {1200, 1200}} {
		params := map[string]any{"tab": tab, "expected_page_revision": 1, "actions": click}
		if tc.given != nil {
			params["actionable_timeout_ms"] = tc.given
		}
		rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, params)
		var sent protocol.ExtActParams
		if err := json.Unmarshal(r.ext.lastParams(protocol.NativeAct), &sent); err != nil {
			t.Fatal(err)
		}
		if sent.ActionableTimeoutMs != tc.want {
			t.Errorf("actionable_timeout_ms %v: the extension was asked for %d, want %d", tc.given, sent.ActionableTimeoutMs, tc.want)
		}
	}
}
