package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// The probe at start lists browser_developer before the client's first
// tools/list when the host says Developer mode is on; a host that says off
// leaves it out.
func TestDeveloperToolListedFromTheHostsHello(t *testing.T) {
	for _, on := range []bool{false, true} {
		socket := socketPath(t)
		serveCore(t, socket, &fakeCore{developer: on, answer: func(string) (any, error) { return map[string]any{}, nil }})
		srv, err := New(socket, "test")
		if err != nil {
			t.Fatal(err)
		}
		srv.probeHost(context.Background())
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.MCP().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(toolNames(t, cs), protocol.MethodDeveloper); got != on {
			t.Errorf("developer_mode %v: browser_developer listed %v", on, got)
		}
		cs.Close()
		ss.Close()
		srv.core.close()
	}
}

// A host that becomes reachable after the client listed the tools adds
// browser_developer, and the client hears tools/list_changed; the call
// reaches the host as browser_developer with the agent's arguments.
func TestDeveloperToolAddedWhenTheHostAppears(t *testing.T) {
	socket := socketPath(t)
	srv, err := New(socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.core.close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	changed := make(chan struct{}, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if slices.Contains(toolNames(t, cs), protocol.MethodDeveloper) {
		t.Fatal("listed before any host said Developer mode is on")
	}
	core := &fakeCore{developer: true, answer: func(string) (any, error) {
		return protocol.DeveloperResult{Tab: "tab_1", Result: map[string]any{"value": "T"}, Outcome: protocol.OutcomeConfirmed}, nil
	}}
	serveCore(t, socket, core)
	callTool(t, cs, protocol.MethodTabs, nil)
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed")
	}
	if !slices.Contains(toolNames(t, cs), protocol.MethodDeveloper) {
		t.Fatal("not listed after the host said Developer mode is on")
	}
	res, isErr := callTool(t, cs, protocol.MethodDeveloper, map[string]any{"tab": "tab_1", "action": "evaluate", "expression": "document.title"})
	if isErr || !cmp.Equal(res["result"], map[string]any{"value": "T"}) {
		t.Fatalf("got %v (isError %v)", res, isErr)
	}
	sent := core.last(protocol.MethodDeveloper)
	if sent["expression"] != "document.title" || sent["action"] != "evaluate" || sent["tab"] != "tab_1" {
		t.Fatalf("sent %v", sent)
	}
}

// The on list's extra tool is a wire contract like the default list
// (tools.golden.json, which is the off list).
func TestDeveloperToolGolden(t *testing.T) {
	socket := socketPath(t)
	serveCore(t, socket, &fakeCore{developer: true, answer: func(string) (any, error) { return map[string]any{}, nil }})
	cs := connect(t, socket)
	callTool(t, cs, protocol.MethodTabs, nil)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tool *mcp.Tool
	for _, x := range tools.Tools {
		if x.Name == protocol.MethodDeveloper {
			tool = x
		}
	}
	if tool == nil {
		t.Fatal("browser_developer not listed")
	}
	got, err := json.MarshalIndent(tool, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "developer_tool.golden.json", got)
}
