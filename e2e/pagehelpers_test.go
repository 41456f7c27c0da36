package e2e

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"

	"github.com/agenttab/agenttab/protocol"
)

// snap takes an interactive snapshot and returns its text and revision.
func snap(t testing.TB, s *mcp.ClientSession, tab string, extra map[string]any) (string, int64, map[string]any) {
	t.Helper()
	args := map[string]any{"tab": tab}
	for k, v := range extra {
		args[k] = v
	}
	res := ok(t, s, protocol.MethodSnapshot, args)
	text, _ := res["text"].(string)
	rev, _ := res["page_revision"].(float64)
	return text, int64(rev), res
}

// refOf finds the ref of the first line with role and name in a snapshot.
func refOf(t testing.TB, text, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\s*- ` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `"[^\n]*?\[ref=(e\d+)\]`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s %q with a ref in the snapshot:\n%s", role, name, text)
	}
	return m[1]
}

// act runs a batch that must complete and returns its result.
func act(t testing.TB, s *mcp.ClientSession, tab string, rev int64, steps ...map[string]any) map[string]any {
	t.Helper()
	actions := make([]any, len(steps))
	for i, st := range steps {
		actions[i] = st
	}
	return ok(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions})
}

// actRefused runs a batch whose step stepIndex must fail with code, with
// nothing after it run.
func actRefused(t testing.TB, s *mcp.ClientSession, tab string, rev int64, code protocol.ErrorCode, steps ...map[string]any) map[string]any {
	t.Helper()
	actions := make([]any, len(steps))
	for i, st := range steps {
		actions[i] = st
	}
	res := refusedAny(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions})
	got := res["code"]
	if errObj, ok := res["error"].(map[string]any); ok {
		got = errObj["code"]
	}
	if got != string(code) {
		t.Fatalf("act: code %v, want %s: %v", got, code, res)
	}
	return res
}

// refusedAny calls a tool that must fail and returns its structured result.
func refusedAny(t testing.TB, s *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, isErr := harness.CallTool(t, s, tool, args)
	if !isErr {
		t.Fatalf("%s succeeded, want a failure: %v", tool, res)
	}
	return res
}

func stepsOf(res map[string]any) []map[string]any {
	raw, _ := res["steps"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

func revisionOf(res map[string]any) int64 {
	v, _ := res["page_revision"].(float64)
	return int64(v)
}

func step(kind string, kv ...any) map[string]any {
	m := map[string]any{"kind": kind}
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}
