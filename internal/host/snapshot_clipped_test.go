package host

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// TestSnapshotClippedIsNotComplete: a window that holds the whole snapshot
// is "clipped", not "complete", when the mode clipped texts (issue 11), and
// says how to read them whole; a window that is also cut by max_chars says
// both.
func TestSnapshotClippedIsNotComplete(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	r.ext.mu.Lock()
	r.ext.pageText = "- paragraph [ref=e1]: A long paragraph… (+312 chars)\n- button \"Send\" [ref=e2]"
	r.ext.pageClipped = &protocol.ClippedText{Texts: 1, Chars: 312}
	r.ext.mu.Unlock()

	whole := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab})
	if whole.Status != protocol.SnapshotClipped || whole.Clipped == nil || *whole.Clipped != (protocol.ClippedText{Texts: 1, Chars: 312}) ||
		!strings.Contains(whole.TruncatedReason, `mode "full"`) || !strings.Contains(whole.TruncatedReason, "312 characters") {
		t.Fatalf("a clipped snapshot: %+v", whole)
	}
	window := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(20)})
	if window.Status != protocol.SnapshotTruncated || !strings.Contains(window.TruncatedReason, "capture_chars") || !strings.Contains(window.TruncatedReason, "1 long text clipped") {
		t.Fatalf("a clipped snapshot's first window: %+v", window)
	}
	r.ext.mu.Lock()
	r.ext.pageClipped = nil
	r.ext.mu.Unlock()
	if plain := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab}); plain.Status != protocol.SnapshotComplete || plain.Clipped != nil {
		t.Fatalf("nothing clipped: %+v", plain)
	}
}
