package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 15, "MCP conformance": the official clients from npm
// (e2e/conformance/package.json: the TypeScript SDK's Client and the MCP
// Inspector's CLI mode) list and call AgentTab's tools over stdio and over
// Streamable HTTP, against the real browser and host.

// conformanceDir holds the clients; scripts/deps.sh runs
// `npm ci --prefix e2e/conformance`.
const conformanceDir = "conformance"

// nodeTimeout bounds one client run (it starts the adapter, lists, calls).
const nodeTimeout = 2 * time.Minute

// runNode runs node with args in dir and returns its stdout, failing the
// test with its stderr when it fails.
func runNode(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	if _, err := os.Stat(filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Fatalf("the official MCP clients are not installed (%v): run `npm ci --prefix e2e/conformance`", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

// conformanceEnv is the environment of a client that starts `agenttab mcp`
// on e's state directory.
func conformanceEnv(e *harness.Env, extra ...string) []string {
	return append(append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir), extra...)
}

// toolResult is a CallToolResult as the clients print it.
type toolResult struct {
	IsError           bool           `json:"isError"`
	StructuredContent map[string]any `json:"structuredContent"`
	Content           []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// succeeded checks a tool result is a success with structured content that
// the text content repeats (result.go: structured content + JSON text).
func succeeded(t *testing.T, where string, r toolResult) {
	t.Helper()
	if r.IsError || r.StructuredContent == nil {
		t.Fatalf("%s: isError %v, structuredContent %v", where, r.IsError, r.StructuredContent)
	}
	if len(r.Content) == 0 || r.Content[0].Type != "text" || r.Content[0].Text == "" {
		t.Errorf("%s: no text content beside the structured content: %+v", where, r.Content)
	}
}

func sortedStandardTools() []string {
	return slices.Sorted(slices.Values(protocol.StandardTools))
}

// The SDK's Client (StdioClientTransport, StreamableHTTPClientTransport):
// tools/list, browser_open, browser_snapshot, browser_finish in one
// session. The SDK validates each structuredContent against the tool's
// outputSchema and throws when it does not fit, failing the script.
func TestMCPConformanceSDKClient(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Conformance")})
	url := startHTTPMCP(t, e)
	token := strings.TrimPrefix(httpBearer(t, e), "Bearer ")
	for _, tc := range []struct {
		transport string
		target    string
		env       []string
	}{
		{"stdio", e.Bin, conformanceEnv(e)},
		{"http", url, conformanceEnv(e, "AGENTTAB_MCP_TOKEN="+token)},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			out := runNode(t, conformanceDir, tc.env, "sdk-client.mjs", tc.transport, base+"/", tc.target)
			var got struct {
				Server struct{ Name string } `json:"server"`
				Tools  []struct {
					Name            string `json:"name"`
					HasOutputSchema bool   `json:"hasOutputSchema"`
				} `json:"tools"`
				Calls map[string]toolResult `json:"calls"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("the SDK client printed %s: %v", out, err)
			}
			if got.Server.Name != "agenttab" {
				t.Errorf("serverInfo.name %q, want agenttab", got.Server.Name)
			}
			var names []string
			for _, tool := range got.Tools {
				names = append(names, tool.Name)
				if !tool.HasOutputSchema {
					t.Errorf("%s declares no outputSchema", tool.Name)
				}
			}
			slices.Sort(names)
			if diff := cmp.Diff(sortedStandardTools(), names); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}
			for _, tool := range []string{protocol.MethodOpen, protocol.MethodSnapshot, protocol.MethodFinish} {
				succeeded(t, tool, got.Calls[tool])
			}
			open := got.Calls[protocol.MethodOpen].StructuredContent
			tab, _ := open["tab"].(map[string]any)
			if handle, _ := tab["tab"].(string); !strings.HasPrefix(handle, "tab_") || tab["url"] != base+"/" {
				t.Errorf("browser_open's structured content: %v", open)
			}
			snapshot := got.Calls[protocol.MethodSnapshot].StructuredContent
			if _, ok := snapshot["page_revision"].(float64); !ok || !strings.Contains(got.Calls[protocol.MethodSnapshot].Content[0].Text, "Conformance") {
				t.Errorf("browser_snapshot: %+v", got.Calls[protocol.MethodSnapshot])
			}
		})
	}
	// browser_finish with close_tabs closed both sessions' tabs.
	for _, tab := range e.ChromeTabs(t) {
		if tab.URL == base+"/" {
			t.Errorf("a tab the clients' tasks opened is still open after browser_finish: %+v", tab)
		}
	}
}

// The MCP Inspector's CLI mode (@modelcontextprotocol/inspector-cli, the
// CLI `npx @modelcontextprotocol/inspector --cli` runs): tools/list and
// tools/call browser_open, over stdio and Streamable HTTP. Each run is one
// MCP session, hence one task of its own, so a later call cannot name the
// tab an earlier run opened: the SDK test above covers the session flow.
func TestMCPConformanceInspectorCLI(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/stdio": page("Inspected"), "/http": page("Inspected")})
	url := startHTTPMCP(t, e)
	// Inspector CLI 1.0.3 reads its own package.json at "../package.json"
	// if that exists relative to the working directory, else at
	// "../../package.json" relative to itself (its layout inside the
	// inspector package), so it runs from its build directory.
	cli, err := filepath.Abs(filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "inspector-cli", "build"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		transport string
		target    []string
	}{
		{"stdio", []string{e.Bin, "mcp"}},
		{"http", []string{url, "--transport", "http", "--header", "Authorization: " + httpBearer(t, e)}},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			inspect := func(args ...string) []byte {
				return runNode(t, cli, conformanceEnv(e), append(append([]string{"cli.js", "--cli"}, tc.target...), args...)...)
			}
			var list struct {
				Tools []struct {
					Name         string         `json:"name"`
					InputSchema  map[string]any `json:"inputSchema"`
					OutputSchema map[string]any `json:"outputSchema"`
				} `json:"tools"`
			}
			if out := inspect("--method", "tools/list"); json.Unmarshal(out, &list) != nil {
				t.Fatalf("tools/list printed %s", out)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				if tool.InputSchema["type"] != "object" || tool.OutputSchema["type"] != "object" {
					t.Errorf("%s: inputSchema %v, outputSchema %v", tool.Name, tool.InputSchema["type"], tool.OutputSchema["type"])
				}
			}
			slices.Sort(names)
			if diff := cmp.Diff(sortedStandardTools(), names); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}
			var open toolResult
			if out := inspect("--method", "tools/call", "--tool-name", protocol.MethodOpen, "--tool-arg", "url="+base+"/"+tc.transport); json.Unmarshal(out, &open) != nil {
				t.Fatalf("tools/call browser_open printed %s", out)
			}
			succeeded(t, "browser_open", open)
			tab, _ := open.StructuredContent["tab"].(map[string]any)
			if tab == nil || tab["url"] != base+"/"+tc.transport {
				t.Fatalf("browser_open's structured content: %v", open.StructuredContent)
			}
			// The tab is really open in Chrome, in a task's group.
			if g := chromeTabByURL(t, e, base+"/"+tc.transport).GroupID; g == -1 {
				t.Errorf("the tab the Inspector opened is in no group")
			}
		})
	}
}
