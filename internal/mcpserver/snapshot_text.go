package mcpserver

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// snapshotText is what a model reads of a snapshot: a short header, a blank
// line, and the tree itself, not the tree escaped inside JSON (quotes and
// newlines would cost tokens and readability). The structured content
// keeps every other field.
func snapshotText(r protocol.SnapshotResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tab: %s\nurl: %s\ntitle: %s\npage_revision: %d (ref_epoch %d)\n", r.Tab, r.URL, r.Title, r.PageRevision, r.RefEpoch)
	fmt.Fprintf(&b, "mode: %s; characters %d–%d of %d; %s", r.Mode, r.Coverage.Start, r.Coverage.End, r.Coverage.Total, r.Status)
	if r.TruncatedReason != "" {
		fmt.Fprintf(&b, " (%s)", r.TruncatedReason)
	}
	b.WriteString("\n")
	if r.ServedBy == protocol.RouteScripting {
		b.WriteString("route: scripting (Chrome refuses the debugger on this tab): top frame only; click, text, select, check, focus and scroll steps and text or ref waits work, as DOM events without user activation (a page may ignore them); hover, keys, drag, dialogs, network-idle and download waits and screenshots fail debugger_unavailable\n")
	}
	for _, stop := range r.OriginStops {
		fmt.Fprintf(&b, "origin policy stopped a navigation the page started: %s (%s)\n", stop.URL, stop.Reason)
	}
	if r.Found != nil && !*r.Found {
		b.WriteString("find: no match at or after start\n")
	}
	if r.Dialog != nil {
		fmt.Fprintf(&b, "dialog open: %s %q (answer with a dialog step)\n", r.Dialog.Type, r.Dialog.Message)
	}
	if r.Screenshot != nil {
		fmt.Fprintf(&b, "screenshot: %s (%s, %d bytes, file %s)\n", r.Screenshot.URI, r.Screenshot.MimeType, r.Screenshot.Bytes, r.Screenshot.Path)
	}
	b.WriteString("\n")
	b.WriteString(r.Text)
	return b.String()
}

// SnapshotTree reads the tree back out of a browser_snapshot tool result:
// the first text content after its header's blank line.
func SnapshotTree(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			_, tree, _ := strings.Cut(tc.Text, "\n\n")
			return tree
		}
	}
	return ""
}
