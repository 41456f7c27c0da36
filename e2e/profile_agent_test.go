package e2e

import (
	"context"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// profAgent is one agent of the browser_profile tests: one MCP session,
// hence one task. Its refusals also demand outcome not_started.
type profAgent struct{ s *mcp.ClientSession }

func newProfAgent(t testing.TB, e *harness.Env) *profAgent {
	t.Helper()
	s := e.MCP(t)
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(tools.Tools, func(tool *mcp.Tool) bool { return tool.Name == protocol.MethodProfile }) {
		t.Fatalf("agenttab mcp does not list %s", protocol.MethodProfile)
	}
	return &profAgent{s: s}
}

func (a *profAgent) call(t testing.TB, method string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	return harness.CallTool(t, a.s, method, args)
}

func (a *profAgent) ok(t testing.TB, method string, args map[string]any) map[string]any {
	t.Helper()
	res, isErr := a.call(t, method, args)
	if isErr {
		t.Fatalf("%s %v failed: %v", method, args, res)
	}
	return res
}

// refused checks the call fails with code, not_started, with recovery text.
func (a *profAgent) refused(t testing.TB, method string, args map[string]any, code protocol.ErrorCode) map[string]any {
	t.Helper()
	res, isErr := a.call(t, method, args)
	if !isErr {
		t.Fatalf("%s %v succeeded, want %s: %v", method, args, code, res)
	}
	if res["code"] != string(code) || res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("%s %v: %v, want %s not_started", method, args, res, code)
	}
	if r, _ := res["recovery"].(string); r == "" {
		t.Fatalf("%s: failure without recovery text: %v", method, res)
	}
	return res
}

// prof runs one browser_profile operation that must succeed.
func (a *profAgent) prof(t testing.TB, op protocol.ProfileOp, args map[string]any) map[string]any {
	t.Helper()
	return a.ok(t, protocol.MethodProfile, profArgs(op, args))
}

func (a *profAgent) profRefused(t testing.TB, op protocol.ProfileOp, args map[string]any, code protocol.ErrorCode) map[string]any {
	t.Helper()
	return a.refused(t, protocol.MethodProfile, profArgs(op, args), code)
}

func profArgs(op protocol.ProfileOp, args map[string]any) map[string]any {
	out := map[string]any{"op": string(op)}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// itemsOf answers a read's items.
func itemsOf(t testing.TB, res map[string]any) []map[string]any {
	t.Helper()
	raw, isList := res["items"].([]any)
	if !isList && (res["items"] != nil || res["outcome"] != string(protocol.OutcomeObserved)) {
		t.Fatalf("no items in %v", res)
	}
	// An empty read answers no items at all: ProfileResult.Items is
	// omitempty (protocol/profile.go), although the host sets [].
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

// itemWith finds the one item whose field is value.
func itemWith(t testing.TB, items []map[string]any, field, value string) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, it := range items {
		if it[field] == value {
			found = append(found, it)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d items with %s %q, want 1: %v", len(found), field, value, items)
	}
	return found[0]
}
