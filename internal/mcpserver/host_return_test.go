package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// A host the adapter reached goes away (Chrome stopped the extension's
// worker) and comes back: a call made meanwhile waits for it and succeeds
// (host_return.go); an adapter that never reached a host fails at once.
func TestACallWaitsForAHostThatWentAway(t *testing.T) {
	tabs := &fakeCore{answer: func(string) (any, error) {
		return protocol.TabsResult{Task: protocol.TaskRef{ID: "task_1", Label: "Task 1"}, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}, nil
	}}
	call := func(cs *mcp.ClientSession) <-chan *mcp.CallToolResult {
		done := make(chan *mcp.CallToolResult, 1)
		go func() {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: protocol.MethodTabs})
			if err != nil {
				r = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
			}
			done <- r
		}()
		return done
	}

	never := connect(t, socketPath(t))
	if r := <-call(never); !r.IsError || r.StructuredContent.(map[string]any)["code"] != string(protocol.CodeHostUnavailable) {
		t.Fatalf("a call with no host ever reached: %+v", r)
	}

	socket := socketPath(t)
	stop := serveCore(t, socket, tabs)
	cs := connect(t, socket)
	if r := <-call(cs); r.IsError {
		t.Fatalf("the first call: %+v", r)
	}
	stop()
	pending := call(cs)
	// The host is away for a moment while the call waits.
	time.Sleep(3 * hostReturnPoll)
	serveCore(t, socket, tabs)
	if r := <-pending; r.IsError {
		t.Fatalf("a call made while the host was away failed instead of waiting for it: %+v", r.Content)
	}
}
