package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type tabsInput struct {
	Tab string `json:"tab,omitempty" jsonschema:"Optional tab handle: report only this tab (fails with not_owned if this task no longer owns it)."`
}

var tabsTool = &mcp.Tool{
	Name:  protocol.MethodTabs,
	Title: "List this task's tabs",
	Description: `List the tabs this task owns, as Chrome has them now: handle, url, title, automation_route ("full" or "tab_only"), page_revision and whether it is still loading.
Only this task's tabs appear; other agents' tabs and the user's tabs never do. A tab the user closed, ungrouped or moved out of the group is gone from the list.`,
	Annotations: &mcp.ToolAnnotations{Title: "List this task's tabs", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
}

func (s *Server) tabs(ctx context.Context, _ *mcp.CallToolRequest, in tabsInput) (*mcp.CallToolResult, any, error) {
	var res protocol.TabsResult
	perr := s.core.call(ctx, protocol.MethodTabs, protocol.TabsParams(in), &res, protocol.OutcomeNotStarted)
	return toolResult(res, perr), nil, nil
}
