package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type openInput struct {
	URL            string             `json:"url,omitempty" jsonschema:"Required with mode create (the default): the page to open, an absolute http(s) URL. Browser pages such as chrome://version open too, but only for navigation, reload, close and load waits."`
	Mode           protocol.OpenMode  `json:"mode,omitempty" jsonschema:"How to get the tab. create (the default) opens a new tab owned by this task. adopt_active asks the user, in the AgentTab popup, to give this task the tab they are looking at now (no url); the call waits for their answer."`
	TimeoutMs      *int               `json:"timeout_ms,omitempty" jsonschema:"adopt_active only: how long to wait for the user's answer, 1 to 300000 ms (omit it for 60000). Without an Allow the call fails needs_user: ask the user in your chat, then retry."`
	Placement      protocol.Placement `json:"placement,omitempty" jsonschema:"tab (default): a background tab beside this task's other tabs. new_window: an unfocused new window, only for the task's first tab."`
	IdempotencyKey string             `json:"idempotency_key,omitempty"`
}

var openTool = &mcp.Tool{
	Name:  protocol.MethodOpen,
	Title: "Open a task tab",
	Description: `Open a page in a new background tab owned by this task, inside the task's visible Chrome tab group. The user's own tabs and windows are never touched and nothing is focused.
Returns the tab handle (use it in every later call), url, title, automation_route and page_revision. automation_route "full" allows reading and acting on the page; "tab_only" (chrome://, extension pages, the Web Store) allows only navigation, reload, close and load waits.
If the user closes, ungroups or drags the tab out of the group, this task loses it: later calls fail with not_owned.
The user's policy may limit the sites agents visit: a URL it refuses fails origin_policy_denied with nothing opened (choose an allowed site, or ask the user).
With mode adopt_active the user's current tab joins this task's group if the user allows it in the AgentTab popup; an adopted tab stays the user's and is never closed by browser_finish.`,
	Annotations: &mcp.ToolAnnotations{Title: "Open a task tab", ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	InputSchema: describeKey(inputSchema[openInput](), "opening a second tab", "its url is cut to the origin and its title is empty"),
}

func (s *Server) open(ctx context.Context, req *mcp.CallToolRequest, in openInput) (*mcp.CallToolResult, any, error) {
	if in.Mode == "" {
		in.Mode = protocol.OpenModeCreate
	}
	if in.Mode == protocol.OpenModeAdoptActive {
		// The user may take a while to answer: the client sees progress.
		defer reportProgress(ctx, req, in.TimeoutMs, protocol.DefaultAdoptTimeoutMs)()
	}
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.OpenParams{URL: in.URL, Mode: in.Mode, Placement: in.Placement, TimeoutMs: in.TimeoutMs, IdempotencyKey: key}
	var res protocol.OpenResult
	perr = s.core.call(ctx, protocol.MethodOpen, params, &res, protocol.OutcomeUnknown)
	return toolResult(res, perr), nil, nil
}

func ptr[T any](v T) *T { return &v }
