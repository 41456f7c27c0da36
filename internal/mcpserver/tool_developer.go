package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// browser_developer (protocol/developer.go) is listed only while the host
// says the user's policy enables Developer mode (HelloResult.DeveloperMode,
// read on every Core connection: developerListing). The adapter never reads
// the policy itself: the host is the one source of it.

type developerInput struct {
	Tab        string                   `json:"tab" jsonschema:"The tab handle (from browser_open or browser_tabs): a tab your task owns."`
	Action     protocol.DeveloperAction `json:"action" jsonschema:"cdp: send one DevTools protocol command to the tab; evaluate: evaluate JavaScript in the page's main world."`
	Method     string                   `json:"method,omitempty" jsonschema:"The DevTools method, Domain.method, such as DOM.getDocument (cdp)."`
	Params     map[string]any           `json:"params,omitempty" jsonschema:"The command's parameters, a JSON object (cdp)."`
	Expression string                   `json:"expression,omitempty" jsonschema:"The JavaScript expression; its value is returned by value, a promise awaited (evaluate)."`
	// The agent's key, mapped as browser_act's (agentkeys.go).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

var developerTool = &mcp.Tool{
	Name:        protocol.MethodDeveloper,
	Title:       "Developer mode: raw DevTools and JavaScript",
	Description: `Developer mode, which the user turned on in AgentTab's policy as a broader trust decision: action "cdp" sends one raw DevTools protocol command (method, params) to a tab your task owns and returns its result; action "evaluate" evaluates expression in the page's main world and returns {value} or {exception}. Owned tabs only (not_owned otherwise); browser-owned pages fail browser_restricted_origin; Target and Browser commands are refused. Your task is marked for the user: its tab group title and the AgentTab popup show it used Developer mode. Prefer the Standard tools; every call is audited (its shape, never the expression or params).`,
	Annotations: &mcp.ToolAnnotations{Title: "Developer mode: raw DevTools and JavaScript", ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	InputSchema: describeKey(inputSchema[developerInput](), "running it again", ""),
}

func (s *Server) developer(ctx context.Context, _ *mcp.CallToolRequest, in developerInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.DeveloperParams{Tab: in.Tab, Action: in.Action, Method: in.Method, Params: in.Params, Expression: in.Expression, IdempotencyKey: key}
	var res protocol.DeveloperResult
	perr = s.core.call(ctx, protocol.MethodDeveloper, params, &res, protocol.OutcomeUnknown)
	return toolResult(res, perr), nil, nil
}
