package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type finishInput struct {
	CloseTabs      bool   `json:"close_tabs,omitempty" jsonschema:"Close the tabs this task opened (default false: they stay open for the user, ungrouped)."`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

var finishTool = &mcp.Tool{
	Name:  protocol.MethodFinish,
	Title: "Finish the task",
	Description: `End this task when its browser work is done: the task gives up its tabs and its tab group disappears. With close_tabs: true the tabs the task opened are closed; otherwise they stay open for the user.
Your next browser call starts a new task with no tabs.`,
	Annotations: &mcp.ToolAnnotations{Title: "Finish the task", ReadOnlyHint: false, DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	InputSchema: describeKey(inputSchema[finishInput](), "finishing again", ""),
}

func (s *Server) finish(ctx context.Context, _ *mcp.CallToolRequest, in finishInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.FinishParams{CloseTabs: in.CloseTabs, IdempotencyKey: key}
	var res protocol.FinishResult
	perr = s.core.call(ctx, protocol.MethodFinish, params, &res, protocol.OutcomeUnknown)
	if perr == nil {
		s.core.taskEnded()
	}
	return toolResult(res, perr), nil, nil
}
