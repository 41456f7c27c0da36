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
	tabs := tabsCore()
	never := connect(t, socketPath(t))
	if r := <-callTabs(never); !r.IsError || r.StructuredContent.(map[string]any)["code"] != string(protocol.CodeHostUnavailable) {
		t.Fatalf("a call with no host ever reached: %+v", r)
	}

	socket := socketPath(t)
	stop := serveCore(t, socket, tabs)
	cs := connect(t, socket)
	if r := <-callTabs(cs); r.IsError {
		t.Fatalf("the first call: %+v", r)
	}
	stop()
	pending := callTabs(cs)
	// The host is away for a moment while the call waits.
	time.Sleep(3 * hostReturnPoll)
	serveCore(t, socket, tabs)
	if r := <-pending; r.IsError {
		t.Fatalf("a call made while the host was away failed instead of waiting for it: %v", r.StructuredContent)
	}
}

func tabsCore() *fakeCore {
	return &fakeCore{answer: func(string) (any, error) {
		return protocol.TabsResult{Task: protocol.TaskRef{ID: "task_1", Label: "Task 1"}, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}, nil
	}}
}

// callTabs calls browser_tabs and hands back its result when it comes.
func callTabs(cs *mcp.ClientSession) <-chan *mcp.CallToolResult {
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

// A client that lists the tools after the host went away (over HTTP each
// listing probes the host, http.go) neither waits there nor uses up the
// wait: the call after the listing still waits for the host and succeeds.
func TestAListingLeavesTheWaitToTheNextCall(t *testing.T) {
	socket := socketPath(t)
	tabs := tabsCore()
	stop := serveCore(t, socket, tabs)
	h, srv := serveHTTP(t, socket, 0)
	cs := httpClient(t, srv.URL+MCPPath)
	if r := <-callTabs(cs); r.IsError {
		t.Fatalf("the first call: %+v", r)
	}
	stop()
	h.mu.Lock()
	for s := range h.live {
		coreLost(t, s)
	}
	h.mu.Unlock()
	toolNames(t, cs)
	pending := callTabs(cs)
	time.Sleep(3 * hostReturnPoll)
	serveCore(t, socket, tabs)
	if r := <-pending; r.IsError {
		t.Fatalf("the call after a listing failed instead of waiting for the host: %v", r.StructuredContent)
	}
}

// A call whose own context ends while it waits for the host leaves the
// wait to the next call: only a wait that ran its full course stops later
// calls from waiting.
func TestACancelledWaitLeavesTheWaitToTheNextCall(t *testing.T) {
	socket := socketPath(t)
	tabs := tabsCore()
	stop := serveCore(t, socket, tabs)
	srv, err := New(socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.core.close)
	if perr := srv.core.call(context.Background(), protocol.MethodTabs, nil, nil, protocol.OutcomeNotStarted); perr != nil {
		t.Fatalf("the first call: %v", perr)
	}
	stop()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if perr := srv.core.call(cancelled, protocol.MethodTabs, nil, nil, protocol.OutcomeNotStarted); perr == nil {
		t.Fatal("a cancelled call succeeded with no host")
	}
	done := make(chan *protocol.Error, 1)
	go func() {
		done <- srv.core.call(context.Background(), protocol.MethodTabs, nil, nil, protocol.OutcomeNotStarted)
	}()
	time.Sleep(3 * hostReturnPoll)
	serveCore(t, socket, tabs)
	if perr := <-done; perr != nil {
		t.Fatalf("the call after a cancelled one failed instead of waiting for the host: %v", perr)
	}
}

// coreLost waits until s's Core connection has seen the host go, as a
// listing made a while after the host went away would find it.
func coreLost(t *testing.T, s *Server) {
	t.Helper()
	s.core.mu.Lock()
	cl := s.core.client
	s.core.mu.Unlock()
	if cl == nil {
		t.Fatal("no Core connection")
	}
	select {
	case <-cl.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the Core connection did not end with the host")
	}
}
