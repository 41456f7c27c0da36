package host

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// A value outside an enum is refused before anything reaches the
// extension, with a message that names the field, the value refused and
// every value of the protocol's list in its order (built from the list,
// so a value added to the protocol is offered at once).
func TestEnumRefusalsListTheValues(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	long := strings.Repeat("x", 5000)
	wait := func(cond map[string]any) map[string]any {
		return map[string]any{"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": cond}}}
	}
	for _, tc := range []struct {
		method, field, bad string
		params             map[string]any
		values             []string
	}{
		{protocol.MethodOpen, "mode", "adopt", map[string]any{"url": "https://example.com/", "mode": "adopt"}, strs(protocol.OpenModes)},
		{protocol.MethodOpen, "mode", "", map[string]any{"url": "https://example.com/"}, strs(protocol.OpenModes)},
		{protocol.MethodOpen, "placement", "front", map[string]any{"url": "https://example.com/", "mode": "create", "placement": "front"}, strs(protocol.Placements)},
		{protocol.MethodSnapshot, "mode", "everything", map[string]any{"tab": tab, "mode": "everything"}, strs(protocol.SnapshotModes)},
		{protocol.MethodSnapshot, "mode", long, map[string]any{"tab": tab, "mode": long}, strs(protocol.SnapshotModes)},
		{protocol.MethodSnapshot, "screenshot", "4k", map[string]any{"tab": tab, "screenshot": "4k"}, strs(protocol.ScreenshotKinds)},
		{protocol.MethodWait, "until", "idle", map[string]any{"tab": tab, "condition": map[string]any{"until": "idle"}}, strs(protocol.WaitUntils)},
		{protocol.MethodWait, "state", "checked", map[string]any{"tab": tab, "condition": map[string]any{"until": "ref", "ref": "e1", "state": "checked"}}, strs(protocol.WaitStates)},
		{protocol.MethodAct, "step 0 (wait): until", "idle", wait(map[string]any{"until": "idle"}), strs(protocol.WaitUntils)},
		{protocol.MethodAct, "step 0 (wait): state", "checked", wait(map[string]any{"until": "ref", "ref": "e1", "state": "checked"}), strs(protocol.WaitStates)},
	} {
		e := callErr(t, c.Client, tc.method, tc.params)
		if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
			t.Errorf("%s %s=%.20q: got %+v, want invalid_params, not_started, with recovery", tc.method, tc.field, tc.bad, e)
			continue
		}
		rest, ok := strings.CutPrefix(e.Message, tc.field+" must be ")
		for _, v := range tc.values {
			i := strings.Index(rest, strconv.Quote(v))
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(strconv.Quote(v)):]
		}
		shown := tc.bad
		if len(shown) > 40 {
			shown = shown[:40]
		}
		if !ok || !strings.Contains(rest, strconv.Quote(shown)) || len(e.Message) > 300 {
			t.Errorf("%s: message %q does not name %s, list %q in order, then the value refused (cut short)", tc.method, e.Message, tc.field, tc.values)
		}
	}
	for _, m := range []string{protocol.NativeSnapshot, protocol.NativeWait, protocol.NativeAct} {
		if n := count(r.ext.seen(), m); n != 0 {
			t.Errorf("refused calls reached the extension: %d %s", n, m)
		}
	}
	if n := count(r.ext.seen(), protocol.NativeOpen); n != 1 {
		t.Errorf("%d opens reached the extension, want the rig's one", n)
	}
}

func strs[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
