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
	ActionableTimeoutMs  *int            `json:"actionable_timeout_ms,omitempty" jsonschema:"How long each step waits for its target to be shown, still, enabled and uncovered before it is refused, 0 to 30000 ms (omit it for 5000; 0 refuses at once)."`
}

var actTool = &mcp.Tool{
	Name:  protocol.MethodAct,
	Title: "Act on a task tab",
	Description: `Run 1–32 steps on an owned tab, by ref from your latest snapshot, in one call: click, double_click, hover, focus, type (append), fill (replace), clear, press (keys and chords), select (options by label or value), check, uncheck, scroll (into view, or by delta), drag (ref onto to_ref), navigate, reload, back, forward, close, dialog (answer alert/confirm/prompt), wait (any browser_wait condition). Batch steps that follow each other (fill a form and submit it; type, wait for text, click a suggestion) and add snapshot_after to read the result in the same call.
Before pointer input the target is scrolled into view, in scrolled lists too. A target that is hidden, transparent, disabled, moving or covered is waited for up to actionable_timeout_ms (5000 by default; 0 refuses at once), then refused with nothing sent; the receipt's waited_ms says how long it waited. There are no coordinates and no scripts.
type sends key events per character like a person's keyboard (key handlers, masks and autocompletes react); it also types into a terminal's or editor's hidden input, by the ref of that field or its container, and stops with focus_lost if the page moves focus away. fill replaces the value at once; date, time, datetime-local, month, week, color and range inputs take their value format (2010-05-20, 13:45, 2010-05-20T13:45, 2010-05, 2010-W20, #ff0000, 42), and a value the field does not keep fails value_not_accepted with what it holds. press with a ref focuses that field first, without a click. Password, one-time-code and card fields refuse every key (sensitive_field).
drag releases on to_ref's centre, or with position "before"/"after" in its part facing the previous/next item of its list (sortable lists); HTML5 drag and drop and mouse- or pointer-driven libraries both work.
The receipt lists every step with its outcome (confirmed: effect read back; dispatched: sent, not verified; not_started; unknown: may have happened, never resent) and navigation (committed, same_document, …). After a navigation, refs from the old page fail with stale_ref: snapshot again, with the new page_revision. With snapshot_after the text is the receipt as one JSON line, then the snapshot exactly as browser_snapshot gives it.
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
	params := protocol.ActParams{Tab: in.Tab, ExpectedPageRevision: in.ExpectedPageRevision, Actions: in.Actions, IdempotencyKey: key, SnapshotAfter: in.SnapshotAfter, ActionableTimeoutMs: in.ActionableTimeoutMs}
	var res protocol.ActResult
	if perr := s.core.call(ctx, protocol.MethodAct, params, &res, protocol.OutcomeUnknown); perr != nil {
		return toolResult(nil, perr), nil, nil
	}
	r := actResult(res)
	// A batch that stopped at a failed step is an error the model must
	// see, with the receipts of what did run.
	r.IsError = r.IsError || res.Error != nil
	return r, nil, nil
}

// actResult is the receipt as a tool result. A snapshot_after snapshot's
// tree goes once, as plain text the way browser_snapshot gives it: the
// text content is the receipt as one line of JSON (without the snapshot,
// whose header follows), then the snapshot's header, a blank line and the
// tree (snapshotText), so SnapshotTree reads the tree of either tool. The
// structured content has every field but the tree. Sending the tree inside
// the receipt's JSON cost it twice over, and escaped its quotes and
// newlines (issue 11). A snapshot that failed stays in the JSON, where it
// says why.
func actResult(res protocol.ActResult) *mcp.CallToolResult {
	snap := res.Snapshot
	if snap == nil || snap.Status == protocol.SnapshotFailure {
		return toolResult(res, nil)
	}
	res.Snapshot = nil
	receipt, perr := encodeResult(res)
	if perr != nil {
		return toolResult(nil, perr)
	}
	tree := snapshotText(*snap)
	withoutTree := *snap
	withoutTree.Text = ""
	res.Snapshot = &withoutTree
	r := toolResult(res, nil)
	if !r.IsError {
		r.Content = []mcp.Content{&mcp.TextContent{Text: string(receipt) + "\n" + tree}}
	}
	return r
}
