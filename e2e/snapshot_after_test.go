package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/mcpserver"
	"github.com/agenttab/agenttab/protocol"
)

// browser_act with snapshot_after answers the receipt and the page as it
// is after the batch, the tree once, as plain text the way browser_snapshot
// gives it (issue 11: it came JSON-escaped inside the receipt, twice).
func TestSnapshotAfterIsPlainTextOnce(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>After</title>
<button onclick="document.getElementById('out').innerHTML='<h2>Saved &quot;draft&quot;</h2><button>Undo</button>'">Save</button>
<div id=out></div>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: protocol.MethodAct, Arguments: map[string]any{
		"tab": tab, "expected_page_revision": rev, "snapshot_after": true, "actions": []any{step("click", "ref", refOf(t, text, "button", "Save"))},
	}})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("browser_act: %v %+v", err, res)
	}
	out, _ := res.Content[0].(*mcp.TextContent)
	if out == nil {
		t.Fatalf("content %T, want text", res.Content[0])
	}
	// The tree's own quoting of a name (\"), not JSON's on top of it.
	const heading = `- heading "Saved \"draft\"" [level=2]`
	if n := strings.Count(out.Text, heading); n != 1 || strings.Count(out.Text, `button "Undo"`) != 1 || strings.Contains(out.Text, `\\\"`) {
		t.Fatalf("the new heading is in the text %d times, want once, without JSON's escaping:\n%s", n, out.Text)
	}
	receipt, _, _ := strings.Cut(out.Text, "\n")
	var r protocol.ActResult
	if err := json.Unmarshal([]byte(receipt), &r); err != nil || len(r.Steps) != 1 || r.Snapshot != nil {
		t.Errorf("the first line %s (%v), want the receipt's JSON without the snapshot", receipt, err)
	}
	if tree := mcpserver.SnapshotTree(res); !strings.Contains(tree, heading) || strings.Contains(tree, `"steps"`) {
		t.Errorf("the tree after the snapshot's header is:\n%s", tree)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var structured protocol.ActResult
	json.Unmarshal(raw, &structured)
	if sn := structured.Snapshot; sn == nil || sn.Text != "" || sn.PageRevision != structured.PageRevision || sn.Status != protocol.SnapshotComplete || strings.Contains(string(raw), "Undo") {
		t.Errorf("structured content %s, want the snapshot's fields without the tree", raw)
	}
	// The refs of the snapshot_after tree work like a snapshot's.
	act(t, s, tab, structured.PageRevision, step("click", "ref", refOf(t, mcpserver.SnapshotTree(res), "button", "Undo")))
}
