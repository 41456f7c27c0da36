package e2e

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// BenchmarkRoutes: snapshot and click through the scripting route (a page
// where Chrome refuses the debugger: it embeds another extension's frame)
// against the debugger route on the same page without that frame; gen500
// content, through MCP. Reported, never asserted.
func BenchmarkRoutes(b *testing.B) {
	dir, err := filepath.Abs("testdata/blocker")
	if err != nil {
		b.Fatal(err)
	}
	e := harness.Start(b, harness.WithExtension(dir))
	content := harness.GenPage(500)
	framed := content[:len(content)-len("</body></html>")] + `<iframe src="chrome-extension://` + unpackedID(dir) + `/frame.html"></iframe></body></html>`
	base := e.ServePages(map[string]string{"/debugger": content, "/scripting": framed})
	s := e.MCP(b)
	setAutomation(b, e, true)

	for _, route := range []string{"debugger", "scripting"} {
		b.Run(route, func(b *testing.B) {
			tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": base + "/" + route}))
			first, _ := timedCall(b, s, protocol.MethodSnapshot, map[string]any{"tab": tab})
			if first["served_by"] != route {
				b.Fatalf("served by %v, want %s", first["served_by"], route)
			}
			text, rev, _ := snap(b, s, tab, nil)
			button := refOf(b, text, "button", "Button 3")
			var snaps, clicks []time.Duration
			for b.Loop() {
				_, d := timedCall(b, s, protocol.MethodSnapshot, map[string]any{"tab": tab})
				snaps = append(snaps, d)
				_, d = timedCall(b, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{map[string]any{"kind": "click", "ref": button}}})
				clicks = append(clicks, d)
			}
			b.ReportMetric(p50ms(snaps), "snapshot-p50-ms")
			b.ReportMetric(p50ms(clicks), "click-p50-ms")
		})
	}
}

// p50ms is the median of samples in milliseconds.
func p50ms(samples []time.Duration) float64 {
	s := slices.Clone(samples)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
