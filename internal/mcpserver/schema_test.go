package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// Several MCP clients reject type unions; every tool says what its
// structured content holds.
func TestToolSchemasArePlain(t *testing.T) {
	for _, tool := range listTools(t, connect(t, socketPath(t))) {
		for which, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			raw, _ := json.Marshal(schema)
			var tree any
			json.Unmarshal(raw, &tree)
			if schema == nil || tree.(map[string]any)["type"] != "object" {
				t.Errorf("%s: %s schema is not an object schema: %s", tool.Name, which, raw)
			}
			walkSchema(tree, "", func(path string, node map[string]any) {
				if _, union := node["type"].([]any); union {
					t.Errorf("%s: %s schema has a type union at %s: %v", tool.Name, which, path, node["type"])
				}
				for _, k := range []string{"anyOf", "oneOf", "allOf", "if", "then", "not"} {
					if _, ok := node[k]; ok && path == "" {
						t.Errorf("%s: %s schema has %s at its root", tool.Name, which, k)
					}
				}
			})
		}
	}
}

func walkSchema(v any, path string, visit func(string, map[string]any)) {
	node, ok := v.(map[string]any)
	if !ok {
		return
	}
	visit(path, node)
	if props, ok := node["properties"].(map[string]any); ok {
		for name, p := range props {
			walkSchema(p, path+"/"+name, visit)
		}
	}
	walkSchema(node["items"], path+"/items", visit)
	walkSchema(node["additionalProperties"], path+"/additionalProperties", visit)
}

// Arguments the schema refuses come back as a failure like any other:
// invalid_params, not_started, the field named, a recovery; the host never
// hears of the call.
func TestSchemaFailuresAreToolResults(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) { return map[string]any{}, nil }}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	step := map[string]any{"kind": "click", "ref": "e1"}
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{protocol.MethodOpen, map[string]any{"url": 5}, "url"},                                                 // wrong type
		{protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": "soon"}, "timeout_ms"},      // wrong type
		{protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": nil}, "timeout_ms"},         // null is not a value
		{protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "adopt_everything"}, "mode"},    // not in the enum
		{protocol.MethodOpen, map[string]any{"url": "https://a.test/", "placement": "front"}, "placement"},     // not in the enum
		{protocol.MethodOpen, map[string]any{"url": "https://a.test/", "focus": true}, "focus"},                // unknown field
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "actions": []any{step}}, "expected_page_revision"}, // missing
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{}}, "actions"},
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{step, map[string]any{"kind": "tap"}}}, "actions[1].kind"},
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": map[string]any{"until": "load", "timeout_ms": "x"}}}}, "actions[0].wait.timeout_ms"},
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1.5, "actions": []any{step}}, "expected_page_revision"},
		{protocol.MethodWait, map[string]any{"tab": "tab_1"}, "until"},
		{protocol.MethodSnapshot, map[string]any{"tab": 3}, "tab"},
		{protocol.MethodSnapshot, map[string]any{"tab": "tab_1", "mode": "everything"}, "mode"},
		{protocol.MethodTabs, map[string]any{"tab": nil}, "tab"},
		{protocol.MethodFinish, map[string]any{"close_tabs": "yes"}, "close_tabs"},
	} {
		res, isErr := callTool(t, cs, c.tool, c.args)
		msg, _ := res["message"].(string)
		if !isErr || res["code"] != string(protocol.CodeInvalidParams) || res["outcome"] != string(protocol.OutcomeNotStarted) ||
			!strings.HasPrefix(msg, c.field+": ") || !strings.Contains(res["recovery"].(string), c.field) {
			t.Errorf("%s %v: got %v (isError %v), want invalid_params/not_started naming %s", c.tool, c.args, res, isErr, c.field)
		}
	}
	core.mu.Lock()
	defer core.mu.Unlock()
	for _, r := range core.requests {
		if r.method != protocol.MethodHello {
			t.Errorf("a schema-invalid call reached the host: %s %v", r.method, r.params)
		}
	}
}

// Results validate against their output schema, each tool's success (the
// zero result: nil slices are JSON null, dropped rather than sent where the
// schema says array), browser_act's failed batch, and a failure.
func TestResultsMatchOutputSchemas(t *testing.T) {
	socket := socketPath(t)
	var failing atomic.Bool
	core := &fakeCore{answer: func(method string) (any, error) {
		if failing.Load() {
			return nil, protocol.NewError(protocol.CodeNotOwned, protocol.OutcomeNotStarted, "not yours", "Call browser_tabs.")
		}
		switch method {
		case protocol.MethodOpen:
			return protocol.OpenResult{}, nil
		case protocol.MethodSnapshot:
			return protocol.SnapshotResult{Text: "- button \"Send\" [ref=e1]"}, nil
		case protocol.MethodAct:
			return protocol.ActResult{Outcome: protocol.OutcomeNotStarted, Error: protocol.NewError(protocol.CodeStaleRef, protocol.OutcomeNotStarted, "gone", "Snapshot again.")}, nil
		case protocol.MethodWait:
			return protocol.WaitResult{}, nil
		case protocol.MethodFinish:
			return protocol.FinishResult{}, nil
		case protocol.MethodCommit:
			return protocol.CommitResult{Outcome: protocol.OutcomeConfirmed}, nil
		case protocol.MethodHandoff:
			return protocol.HandoffResult{Action: protocol.HandoffStatus, Notices: []protocol.Notice{{NoticeID: "ntc_1", Tab: "tab_1", Reason: protocol.ReasonCaptcha, State: protocol.NoticeOpen}}, UserIdleState: protocol.IdleActive}, nil
		}
		return protocol.TabsResult{}, nil
	}}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{protocol.MethodOpen, map[string]any{"url": "https://a.test/"}},
		{protocol.MethodTabs, nil},
		{protocol.MethodSnapshot, map[string]any{"tab": "tab_1"}},
		{protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "click", "ref": "e1"}}}},
		{protocol.MethodWait, map[string]any{"tab": "tab_1", "until": "load"}},
		{protocol.MethodFinish, nil},
		{protocol.MethodCommit, map[string]any{"stage": "stg_1"}},
		{protocol.MethodHandoff, map[string]any{"action": "status"}},
	}
	for _, fail := range []bool{false, true} {
		failing.Store(fail)
		for _, c := range calls {
			callTool(t, cs, c.tool, c.args) // checkOutput validates
		}
	}
	if res, _ := callTool(t, cs, protocol.MethodTabs, nil); res["code"] != "not_owned" {
		t.Fatalf("the failing half did not fail: %v", res)
	}
}

// checkOutput validates a result's structured content against the tool's
// listed output schema, as the TypeScript SDK's client does (even for
// isError results).
func checkOutput(t *testing.T, cs *mcp.ClientSession, name string, content any) {
	t.Helper()
	for _, tool := range listTools(t, cs) {
		if tool.Name != name {
			continue
		}
		raw, _ := json.Marshal(tool.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(content); err != nil {
			t.Errorf("%s: structured content %v does not match the output schema: %v", name, content, err)
		}
		return
	}
	t.Errorf("%s: no such tool", name)
}

func listTools(t *testing.T, cs *mcp.ClientSession) []*mcp.Tool {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Tools
}
