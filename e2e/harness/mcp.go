package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/mcpserver"
)

// toolTimeout bounds one tool call. Some tools wait on the page by design
// (browser_wait, adoption requests), so it is generous; a hang still ends.
const toolTimeout = 2 * time.Minute

// MCP starts `agenttab mcp` as a subprocess and returns a connected MCP
// session, closed when t ends. Every call is a new process, hence a new Core
// connection, hence a new task: two sessions are two agents.
func (e *Env) MCP(t testing.TB) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(e.Bin, "mcp")
	cmd.Env = append(os.Environ(), stateEnv+"="+e.StateDir)
	stderr := &logBuffer{}
	cmd.Stderr = stderr
	e.addLog("agenttab mcp stderr", stderr)

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
		t.Fatalf("connecting to agenttab mcp: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// CallTool calls a tool and returns its structured result decoded
// generically, and whether the result is a tool error (isError). A
// protocol-level failure fails the test: AgentTab reports every tool failure
// as a result with isError and a structured code (DESIGN.md "Results,
// errors and outcomes").
func CallTool(t testing.TB, s *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	a := callTool(s, name, args)
	if a.Err != nil {
		t.Fatal(a.Err)
	}
	return a.Result, a.IsError
}

// ToolAnswer is what CallTool returns, or the error that kept a call from
// returning it.
type ToolAnswer struct {
	Result  map[string]any
	IsError bool
	Err     error
}

// CallToolAsync starts a tool call and returns at once; the answer arrives
// on the channel. It never fails the test itself, so it is safe from the
// goroutine it runs in: the caller checks Err.
func CallToolAsync(s *mcp.ClientSession, name string, args any) <-chan ToolAnswer {
	done := make(chan ToolAnswer, 1)
	go func() { done <- callTool(s, name, args) }()
	return done
}

func callTool(s *mcp.ClientSession, name string, args any) ToolAnswer {
	ctx, cancel := context.WithTimeout(context.Background(), toolTimeout)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return ToolAnswer{Err: fmt.Errorf("calling %s: %w", name, err)}
	}
	out, err := structured(res)
	if err != nil {
		return ToolAnswer{Err: fmt.Errorf("%s result (isError=%v): %w", name, res.IsError, err)}
	}
	return ToolAnswer{Result: out, IsError: res.IsError}
}

// structured decodes a tool result's StructuredContent as a JSON object,
// falling back to the first text content parsed as JSON (servers that
// predate structured output put the same object there).
func structured(res *mcp.CallToolResult) (map[string]any, error) {
	var raw []byte
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("re-encoding structured content: %w", err)
		}
		raw = b
	} else {
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				raw = []byte(tc.Text)
				break
			}
		}
	}
	if raw == nil {
		return nil, errors.New("no structured content and no text content")
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || out == nil {
		return nil, fmt.Errorf("result is not a JSON object: %s", raw)
	}
	// A snapshot's tree is in the text content only, after the header and
	// a blank line (the tool's description); tests read it as "text".
	if _, has := out["text"]; !has && out["coverage"] != nil {
		out["text"] = mcpserver.SnapshotTree(res)
	}
	// browser_act's snapshot_after snapshot too: its tree follows the receipt.
	if snap, ok := out["snapshot"].(map[string]any); ok && snap["coverage"] != nil && snap["text"] == nil {
		snap["text"] = mcpserver.SnapshotTree(res)
	}
	return out, nil
}
