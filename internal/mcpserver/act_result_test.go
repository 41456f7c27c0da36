package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// snapshot_after's tree comes once, as plain text after the receipt, the
// way browser_snapshot gives it (issue 11: it came JSON-escaped inside the
// receipt, twice); the structured content has every field but the tree.
func TestActSnapshotAfterTreeIsPlainTextOnce(t *testing.T) {
	tree := "- heading \"Done \\\"quoted\\\"\" [level=1]\n- button \"Next\" [ref=e7]"
	socket := socketPath(t)
	serveCore(t, socket, &fakeCore{answer: func(string) (any, error) {
		return protocol.ActResult{
			Tab: "tab_1", PageRevision: 4, URL: "https://a.test/next", Title: "Next", Outcome: protocol.OutcomeConfirmed,
			Steps: []protocol.StepReceipt{{Index: 0, Kind: protocol.StepClick, Outcome: protocol.OutcomeConfirmed}},
			Snapshot: &protocol.SnapshotResult{
				Tab: "tab_1", URL: "https://a.test/next", Title: "Next", PageRevision: 4, RefEpoch: 2, Mode: protocol.SnapshotInteractive,
				Coverage: protocol.Coverage{End: len(tree), Total: len(tree)}, Status: protocol.SnapshotComplete, Text: tree, Outcome: protocol.OutcomeObserved,
			},
		}, nil
	}})
	cs := connect(t, socket)
	res := callAct(t, cs)
	text := onlyText(t, res)
	if n := strings.Count(text, `"Next" [ref=e7]`); n != 1 {
		t.Errorf("the tree's button is in the text %d times, want once:\n%s", n, text)
	}
	receipt, rest, _ := strings.Cut(text, "\n")
	var r map[string]any
	if err := json.Unmarshal([]byte(receipt), &r); err != nil || r["page_revision"] != 4.0 || r["snapshot"] != nil {
		t.Errorf("the first line is %s (%v), want the receipt as JSON without the snapshot", receipt, err)
	}
	if !strings.HasPrefix(rest, "tab: tab_1\n") || !strings.Contains(rest, "page_revision: 4 (ref_epoch 2)") || !strings.HasSuffix(rest, "complete\n\n"+tree) {
		t.Errorf("after the receipt: %q, want the snapshot's header, a blank line and the tree", rest)
	}
	if got := SnapshotTree(res); got != tree {
		t.Errorf("SnapshotTree = %q, want %q", got, tree)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var structured map[string]any
	json.Unmarshal(raw, &structured)
	snap, _ := structured["snapshot"].(map[string]any)
	if snap == nil || (snap["text"] != nil && snap["text"] != "") || snap["page_revision"] != 4.0 || snap["status"] != "complete" || strings.Contains(string(raw), "ref=e7") {
		t.Errorf("structured content %s, want the snapshot's fields without the tree", raw)
	}
	checkOutput(t, cs, protocol.MethodAct, structured)
}

// A snapshot_after that failed says why in the receipt's JSON; no tree follows.
func TestActSnapshotAfterFailureStaysInTheReceipt(t *testing.T) {
	socket := socketPath(t)
	serveCore(t, socket, &fakeCore{answer: func(string) (any, error) {
		return protocol.ActResult{
			Tab: "tab_1", PageRevision: 4, Outcome: protocol.OutcomeConfirmed,
			Steps:    []protocol.StepReceipt{{Index: 0, Kind: protocol.StepClick, Outcome: protocol.OutcomeConfirmed}},
			Snapshot: &protocol.SnapshotResult{Tab: "tab_1", Status: protocol.SnapshotFailure, TruncatedReason: "the page navigated while AgentTab read it", Outcome: protocol.OutcomeNotStarted},
		}, nil
	}})
	cs := connect(t, socket)
	text := onlyText(t, callAct(t, cs))
	var r map[string]any
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		t.Fatalf("the text is not the receipt's JSON: %v\n%s", err, text)
	}
	if snap, _ := r["snapshot"].(map[string]any); snap["status"] != "failure" || !strings.Contains(text, "navigated while AgentTab read it") {
		t.Errorf("the receipt %s, want its snapshot's failure and reason", text)
	}
}

func callAct(t *testing.T, cs *mcp.ClientSession) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: protocol.MethodAct, Arguments: map[string]any{
		"tab": "tab_1", "expected_page_revision": 3, "snapshot_after": true, "actions": []any{map[string]any{"kind": "click", "ref": "e1"}},
	}})
	if err != nil || res.IsError {
		t.Fatalf("browser_act: %v %+v", err, res)
	}
	return res
}

func onlyText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d contents, want one text", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	return tc.Text
}
