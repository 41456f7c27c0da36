package mcpserver

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

func TestSnapshotTextIsReadable(t *testing.T) {
	no := false
	got := snapshotText(protocol.SnapshotResult{
		Tab: "tab_1", URL: "https://a.test/", Title: "A", PageRevision: 3, RefEpoch: 1, Mode: protocol.SnapshotInteractive,
		Coverage: protocol.Coverage{Start: 0, End: 20, Total: 40}, Status: protocol.SnapshotTruncated, TruncatedReason: "max_chars",
		Found: &no, Text: "- button \"Send\" [ref=e2]\n",
		OriginStops: []protocol.OriginStop{{URL: "https://denied.example/x", Reason: "https://denied.example is denied"}},
	})
	for _, want := range []string{"tab: tab_1\n", "page_revision: 3", "characters 0–20 of 40; truncated (max_chars)", "find: no match",
		"origin policy stopped a navigation the page started: https://denied.example/x", "\n\n- button \"Send\" [ref=e2]\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, `\"`) || strings.Contains(got, `\n`) {
		t.Errorf("the tree is escaped:\n%s", got)
	}
}
