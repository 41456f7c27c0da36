package host

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agenttab/agenttab/protocol"
)

// One window may hold a whole large page (issue 11: max_chars up to
// protocol.MaxMaxChars), and still never more than one Core answer can
// carry: a window whose text would pass maxWindowBytes once encoded ends
// early and says where to go on.
func TestLargeWindowsFitOneAnswer(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	whole := strings.Repeat("- button \"Button\" [ref=e1]\n", 40_000) // 1,080,000 characters, as a 20,000-element page
	r.ext.mu.Lock()
	r.ext.pageText = whole
	r.ext.mu.Unlock()
	all := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(protocol.MaxMaxChars)})
	if all.Status != protocol.SnapshotComplete || all.Coverage != (protocol.Coverage{End: len(whole), Total: len(whole)}) || all.Text != whole {
		t.Fatalf("the whole page in one window: %v %+v", all.Status, all.Coverage)
	}

	// Every character of this text takes six bytes in JSON (\u003c).
	escaped := strings.Repeat("<", 1_000_000)
	r.ext.mu.Lock()
	r.ext.pageText = escaped
	r.ext.mu.Unlock()
	first := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(protocol.MaxMaxChars), CacheKey: "k", CaptureChars: len(escaped)})
	end := maxWindowBytes / 6
	if first.Status != protocol.SnapshotTruncated || first.Coverage != (protocol.Coverage{End: end, Total: len(escaped)}) || !strings.Contains(first.TruncatedReason, "call again with start=") {
		t.Fatalf("a window past one answer's size: %v %+v %q", first.Status, first.Coverage, first.TruncatedReason)
	}
	next := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, Start: end, MaxChars: new(protocol.MaxMaxChars), CacheKey: "k"})
	if next.Status != protocol.SnapshotComplete || next.Coverage.Start != end || next.Coverage.End != len(escaped) {
		t.Fatalf("the next window: %+v", next.Coverage)
	}
}

func TestFitEncodedMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"u\o<t>e&`, "a\nb\tc\x01d\u2028e\u2029f", "é漢字🙂", "bad\xffutf8", strings.Repeat("<é", 400)} {
		enc, _ := json.Marshal(s)
		size := len(enc) - 2 // the quotes
		for budget := range size + 2 {
			got := fitEncoded(s, budget)
			if !strings.HasPrefix(s, got) || !utf8.ValidString(got) && utf8.ValidString(s) {
				t.Fatalf("fitEncoded(%q, %d) = %q, not a prefix cut between characters", s, budget, got)
			}
			e, _ := json.Marshal(got)
			if len(e)-2 > budget {
				t.Fatalf("fitEncoded(%q, %d) = %q encodes in %d bytes", s, budget, got, len(e)-2)
			}
			if budget >= size && got != s {
				t.Fatalf("fitEncoded(%q, %d) = %q, want all of it (%d bytes)", s, budget, got, size)
			}
		}
	}
}
