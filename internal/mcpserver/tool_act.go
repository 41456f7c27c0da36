package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type actInput struct {
	Tab                  string          `json:"tab" jsonschema:"The tab handle."`
	ExpectedPageRevision int64           `json:"expected_page_revision" jsonschema:"The page_revision of the snapshot your refs come from; a newer page fails with stale_revision and nothing runs."`
	Actions              []protocol.Step `json:"actions" jsonschema:"1 to 32 steps, run in order; the batch stops at the first failed step."`
	IdempotencyKey       string          `json:"idempotency_key,omitempty"`
	SnapshotAfter        bool            `json:"snapshot_after,omitempty" jsonschema:"Return a fresh interactive snapshot with the receipt."`
}

var actTool = &mcp.Tool{
	Name:  protocol.MethodAct,
	Title: "Act on a task tab",
	Description: `Run 1–32 steps on an owned tab, by ref from your latest snapshot, in one call: click, double_click, hover, focus, type (append), fill (replace), clear, press (keys and chords), select (options by label or value), check, uncheck, scroll (into view, or by delta), drag (ref to to_ref), navigate, reload, back, forward, close, dialog (answer alert/confirm/prompt), wait (any browser_wait condition).
Before pointer input the element is scrolled into view and checked: hidden, transparent, disabled, moving or covered targets are refused with nothing sent. type/fill refuse password, one-time-code and card fields (sensitive_field). There are no coordinates and no scripts.
The receipt lists every step with its outcome (confirmed: effect read back; dispatched: sent, not verified; not_started; unknown: may have happened, never resent) and navigation (committed, same_document, …). After a navigation, refs from the old page fail with stale_ref: snapshot again, with the new page_revision.
When the user's policy limits the sites agents visit, a navigate to a refused site fails origin_policy_denied before the batch starts; a navigation the page starts toward one (link, redirect, popup) is stopped, the tab stays on its page, and the step reports navigation "refused" with origin_policy_denied; back/forward on tab_only pages fail origin_policy_unverifiable (navigate explicitly instead).`,
	Annotations: &mcp.ToolAnnotations{Title: "Act on a task tab", ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	InputSchema: actSchema(),
}

func actSchema() *jsonschema.Schema {
	s := describeKey(inputSchema[actInput](), "running the batch again", "URLs are cut to their origin, titles are empty and snapshot_after's snapshot is left out")
	actions := s.Properties["actions"]
	minItems, maxItems := 1, protocol.MaxSteps
	actions.MinItems, actions.MaxItems = &minItems, &maxItems
	return s
}

func (s *Server) act(ctx context.Context, _ *mcp.CallToolRequest, in actInput) (*mcp.CallToolResult, any, error) {
	key, perr := s.core.keys.coreKey(in.IdempotencyKey)
	if perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	params := protocol.ActParams{Tab: in.Tab, ExpectedPageRevision: in.ExpectedPageRevision, Actions: in.Actions, IdempotencyKey: key, SnapshotAfter: in.SnapshotAfter}
	var res protocol.ActResult
	if perr := s.core.call(ctx, protocol.MethodAct, params, &res, protocol.OutcomeUnknown); perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	r := toolResult(res, nil)
	// A batch that stopped at a failed step is an error the model must
	// see, with the receipts of what did run.
	r.IsError = res.Error != nil
	return r, nil, nil
}
