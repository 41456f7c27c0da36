package mcpserver

import (
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// browser_profile sends its arguments as given; a write gets a UUIDv7
// key (the agent's mapped, or a fresh one), a read none; the result's
// truncated reaches the agent.
func TestProfileToolKeys(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) {
		return protocol.ProfileResult{Op: protocol.ProfileHistorySearch, Items: []any{map[string]any{"id": "1"}}, Truncated: true, Outcome: protocol.OutcomeObserved}, nil
	}}
	serveCore(t, socket, core)
	cs := connect(t, socket)

	out, isErr := callTool(t, cs, protocol.MethodProfile, map[string]any{"op": "history_search", "query": "q", "max_results": 3})
	if isErr || out["truncated"] != true {
		t.Fatalf("read: %v", out)
	}
	sent := core.last(protocol.MethodProfile)
	if _, has := sent["idempotency_key"]; has || sent["query"] != "q" || sent["max_results"] != float64(3) {
		t.Errorf("read sent %v", sent)
	}
	callTool(t, cs, protocol.MethodProfile, map[string]any{"op": "bookmarks_update", "id": "7", "title": "t"})
	fresh, _ := core.last(protocol.MethodProfile)["idempotency_key"].(string)
	callTool(t, cs, protocol.MethodProfile, map[string]any{"op": "bookmarks_update", "id": "7", "title": "t", "idempotency_key": "mine"})
	mapped, _ := core.last(protocol.MethodProfile)["idempotency_key"].(string)
	if !protocol.IsUUIDv7(fresh) || !protocol.IsUUIDv7(mapped) || mapped == fresh {
		t.Errorf("write keys %q and %q", fresh, mapped)
	}
	if _, isErr := callTool(t, cs, protocol.MethodProfile, map[string]any{"op": "history_delete"}); !isErr {
		t.Error("an op outside the enum was sent")
	}
}
