package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// credentialsInput is protocol.CredentialsParams with the agent's key
// mapped as browser_act's (agentkeys.go).
type credentialsInput struct {
	Action         protocol.CredentialAction `json:"action" jsonschema:"prepare: find the 1Password Login items for the tab's current site; fill: write the prepared item's field into ref; advance: the next item, or the next attempt after a failed login."`
	Tab            string                    `json:"tab,omitempty" jsonschema:"The tab handle (prepare)."`
	Token          string                    `json:"token,omitempty" jsonschema:"The token the last prepare, fill or advance returned (fill, advance). Each works once."`
	Ref            string                    `json:"ref,omitempty" jsonschema:"The field's ref from your latest snapshot (fill)."`
	Field          protocol.CredentialField  `json:"field,omitempty" jsonschema:"Which part of the item goes into ref (fill)."`
	IdempotencyKey string                    `json:"idempotency_key,omitempty"`
}

// The flow it teaches is spec 000's 1Password broker: counts, booleans,
// attempt counters and tokens cross MCP, never a value.
var credentialsTool = &mcp.Tool{
	Name:  protocol.MethodCredentials,
	Title: "Sign in with 1Password",
	Description: `Fill a login form from the user's 1Password without ever seeing the secret: the username, password or one-time code goes from 1Password straight into a field of your tab; no value is ever returned to you, logged or audited.
On the login page: action "prepare" with tab. The result counts the Login items for the tab's current site (matched by the site Chrome shows, never by titles), says which fields the prepared item has (has_username, has_password, has_one_time_code) and gives a token. Then "fill" with that token, the ref of the username field and field "username"; each answer gives a new token: fill the password field's ref with field "password" using it (and a one-time-code field with "one_time_code"), then submit with browser_act (click the sign-in button) and check the page with browser_snapshot.
If the login fails, "advance" with the latest token moves to the next item, or the next attempt (attempt of max_attempts); fill again with its token. Each token works once, expires after 5 minutes and dies when the tab navigates (credential_token_invalid: prepare again on the page as it is now). needs_user (no matching item, too many, 1Password locked or slow, attempts used up) means hand the login to the user: browser_handoff with reason "login".
fill writes only into a field fit for the value in the tab's own origin (a password into a password field, never into another site's frame; otherwise credential_field_unfit, nothing written). All your tabs on one site share one login and its attempts: filling the password or code again after a failed submit is the next attempt with the same account, advance switches account, and past max_attempts the answer is needs_user. If a fill fails because the page moved focus, the value was cleared from wherever it landed. Password and one-time-code fields still refuse type and fill in browser_act (sensitive_field): this tool is the only way in besides the user.`,
	Annotations: &mcp.ToolAnnotations{Title: "Sign in with 1Password", ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	InputSchema: describeKey(inputSchema[credentialsInput](), "doing it again", ""),
}

func (s *Server) credentials(ctx context.Context, _ *mcp.CallToolRequest, in credentialsInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.CredentialsParams{Action: in.Action, Tab: in.Tab, Token: in.Token, Ref: in.Ref, Field: in.Field, IdempotencyKey: key}
	// A lost fill may have written the value; a lost advance may have
	// used an attempt. A lost prepare changed nothing the agent can see.
	ifLost := protocol.OutcomeUnknown
	if in.Action == protocol.CredentialPrepare {
		ifLost = protocol.OutcomeNotStarted
	}
	var res protocol.CredentialsResult
	perr = s.core.call(ctx, protocol.MethodCredentials, params, &res, ifLost)
	return toolResult(res, perr), nil, nil
}
