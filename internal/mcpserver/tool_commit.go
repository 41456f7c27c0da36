package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type commitInput struct {
	Stage               string `json:"stage" jsonschema:"The stage id from browser_act's steps[i].stage.stage."`
	IdempotencyKey      string `json:"idempotency_key,omitempty"`
	ActionableTimeoutMs *int   `json:"actionable_timeout_ms,omitempty" jsonschema:"How long the staged step waits for its target to be shown, still, enabled and uncovered, 0 to 30000 ms (omit it for 5000)."`
}

// The flow it teaches is spec 000's Commit review: the human approves in
// the popup, only the agent's later commit runs the step, once.
var commitTool = &mcp.Tool{
	Name:  protocol.MethodCommit,
	Title: "Commit an approved staged action",
	Description: `Run a staged action once, after the user approved it.
With YOLO mode off (the user's choice in the AgentTab popup; you cannot change it), a consequential control (send, publish, purchase, delete, upload, authorization, permission grant) is not run: a click on it, or Enter or Space that would submit its form, comes back from browser_act with outcome "staged" and steps[i].stage {stage, effect, expires_in_ms}, and the steps after it do not run (send them in a new browser_act after the commit). Then: tell the user in your chat what is waiting (the effect and the control), ask them to review it in the AgentTab popup and press Approve, wait for their word, and call browser_commit {stage}. The stage lives 5 minutes, is bound to that exact element on that page, and runs at most once; the result is the step's receipt.
Refusals run nothing (outcome not_started): stage_not_approved (not approved yet: ask the user again), stage_denied (the user said no: do not retry), stage_stale, stage_target_changed, stage_expired or stage_discarded (the page moved on or re-rendered the control, the stage timed out, or YOLO mode was turned on: snapshot and act again, which runs or stages afresh, and ask for approval again), stage_consumed (a commit already took it, whether it ran or was refused at its recheck: snapshot to see).`,

	Annotations: &mcp.ToolAnnotations{Title: "Commit an approved staged action", ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	InputSchema: describeKey(inputSchema[commitInput](), "committing again", "URLs are cut to their origin and titles are empty"),
}

func (s *Server) commit(ctx context.Context, _ *mcp.CallToolRequest, in commitInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.CommitParams{Stage: in.Stage, IdempotencyKey: key, ActionableTimeoutMs: in.ActionableTimeoutMs}
	var res protocol.CommitResult
	if perr := s.core.call(ctx, protocol.MethodCommit, params, &res, protocol.OutcomeUnknown); perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	r := toolResult(res, nil)
	// A step that failed after the stage was consumed is an error the
	// model must see, with the receipt (as browser_act's failed batch).
	r.IsError = r.IsError || res.Error != nil
	return r, nil, nil
}
