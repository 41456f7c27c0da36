package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type handoffInput struct {
	Action     protocol.HandoffAction `json:"action" jsonschema:"request: leave a notice for tab; status: your notices (or tab's) and the user's idle state; resolve: you verified the step is done; dismiss: withdraw the notice."`
	Tab        string                 `json:"tab,omitempty" jsonschema:"The tab handle (request; optional for status)."`
	Reason     protocol.HandoffReason `json:"reason,omitempty" jsonschema:"Why the user is needed (request)."`
	Message    string                 `json:"message,omitempty" jsonschema:"Optional, at most 300 characters, shown to the user in the popup (request). Say what to do, never a secret."`
	NoticeID   string                 `json:"notice_id,omitempty" jsonschema:"The notice_id request returned (resolve, dismiss)."`
	ExpiresInS *int                   `json:"expires_in_s,omitempty" jsonschema:"How long the reminder shows, 60 to 3600 s (omit it for 900); expiry only hides it."`
	// The agent's key, mapped as browser_act's (agentkeys.go).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// The flow it teaches is spec 000's handoff: an advisory notice, the
// user's word in the chat, the agent's own check, then resolve. AgentTab
// never focuses the tab for the agent (only the popup's Open tab does, on
// the user's click).
var handoffTool = &mcp.Tool{
	Name:  protocol.MethodHandoff,
	Title: "Hand a step to the user",
	Description: `For a step only the user may do (passkey, security key, CAPTCHA, payment secret, account recovery, a verification or login you cannot fill): action "request" with tab and reason (and a short message) leaves an attention notice in the AgentTab popup and returns at once with its notice_id. Then ask the user in your chat to do it in Chrome (the popup's Open tab brings them to the tab; AgentTab never focuses it for you), wait for their word, check the page yourself with browser_snapshot, and call action "resolve" with the notice_id (or "dismiss" if you no longer need them).
While the user is on a tab with an open notice, AgentTab does not read or drive it: calls on it (resolve and dismiss too, and a wait already running) fail handoff_in_progress and nothing runs; wait for the user's word, and once they have left the tab check the page and resolve. A notice stays open until you resolve or dismiss it; its expiry only hides the reminder. A new request for the same tab replaces its notice (the old notice_id fails notice_not_found). "status" lists your notices and user_idle_state (active, idle or locked): use it to judge how long to wait, not as a loop; the user's word in your chat is the signal. The message is shown to the user only and is never returned or audited. Notices never block your other work; finishing the task clears them.
A "challenge" member on a snapshot, act or wait result means the tab shows a bot challenge (CAPTCHA): do not click into it (that fails challenge_present); request a handoff with reason "captcha", and after the user's word check that the member says resolved.`,
	Annotations: &mcp.ToolAnnotations{Title: "Hand a step to the user", ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	InputSchema: describeKey(inputSchema[handoffInput](), "doing it again", ""),
}

func (s *Server) handoff(ctx context.Context, _ *mcp.CallToolRequest, in handoffInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.HandoffParams{Action: in.Action, Tab: in.Tab, Reason: in.Reason, Message: in.Message, NoticeID: in.NoticeID, ExpiresInS: in.ExpiresInS, IdempotencyKey: key}
	ifLost := protocol.OutcomeUnknown
	if in.Action == protocol.HandoffStatus {
		ifLost = protocol.OutcomeNotStarted // a read: nothing changes
	}
	var res protocol.HandoffResult
	perr = s.core.call(ctx, protocol.MethodHandoff, params, &res, ifLost)
	return toolResult(res, perr), nil, nil
}
