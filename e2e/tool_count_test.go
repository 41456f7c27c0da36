package e2e

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Spec 000: "Standard mode exposes exactly these ten MCP tools"; "Developer
// mode additionally exposes browser_developer". tools/list over MCP stdio
// and over Streamable HTTP, against the real host, is exactly
// protocol.StandardTools, plus browser_developer only when policy.json
// enables developer_mode.
func TestExactlyTheStandardToolsOverMCP(t *testing.T) {
	for _, developer := range []bool{false, true} {
		var opts []harness.Option
		want := slices.Clone(protocol.StandardTools)
		if developer {
			opts = append(opts, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
			want = append(want, protocol.MethodDeveloper)
		}
		slices.Sort(want)
		e := harness.Start(t, opts...)
		url := startHTTPMCP(t, e)
		for transport, s := range map[string]*mcp.ClientSession{"stdio": e.MCP(t), "http": httpSession(t, url, httpBearer(t, e))} {
			if diff := cmp.Diff(want, listedToolNames(t, s)); diff != "" {
				t.Errorf("developer_mode %v, MCP %s: tools/list differs from the Standard tools (-want +got):\n%s", developer, transport, diff)
			}
		}
	}
}

// listedToolNames is tools/list's names, sorted.
func listedToolNames(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}
