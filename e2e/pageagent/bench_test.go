package pageagent

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// walkerRun is one snapshot timed inside the page (the walker alone, no
// CDP transfer).
type walkerRun struct {
	MS    float64 `json:"ms"`
	Chars int     `json:"chars"`
}

func (p *tab) timedSnapshot(t testing.TB, mode string) walkerRun {
	t.Helper()
	var r walkerRun
	p.eval(t, fmt.Sprintf(`(() => {
		const t0 = performance.now();
		const s = __agenttab.snapshot({mode: %q, nextId: 1, maxChars: 2000000, indent: ""});
		return {ms: performance.now() - t0, chars: s.text.length};
	})()`, mode), &r)
	return r
}

// BenchmarkSnapshot reports the walker's time (in the page) and the
// snapshot's size for notes/peers.md's generated pages and the form page
// (testdata/form.html); ns/op is a whole snapshot through CDP (walk,
// JSON, transfer). The walker time is the median over b.N runs. Times are
// reported, never asserted.
func BenchmarkSnapshot(b *testing.B) {
	for _, path := range []string{"/gen?n=500", "/gen?n=5000", "/gen?n=20000", "/form.html"} {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.ReplaceAll(path, "?n=", ""), "/"), ".html")
		for _, mode := range []string{"interactive", "full", "readable"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				p := open(b, path)
				// The first snapshot of a document also builds the isolated
				// world's wrappers of its elements.
				cold := p.timedSnapshot(b, mode)
				walker := make([]float64, 0, b.N)
				var chars int
				b.ResetTimer()
				for range b.N {
					r := p.timedSnapshot(b, mode)
					walker = append(walker, r.MS)
					chars = r.Chars
				}
				slices.Sort(walker)
				b.ReportMetric(walker[len(walker)/2], "walker-p50-ms")
				b.ReportMetric(cold.MS, "first-ms")
				b.ReportMetric(float64(chars), "chars")
			})
		}
	}
}

// BenchmarkListenerScan times what the debugger route adds to a frame's
// snapshot to find press listeners (background/pagework/listeners.ts,
// mirrored by reportListeners): ns/op over CDP for small pages, a page of
// rows with listeners (the corpus inbox) and gen5000 (over the scan's
// 3,000-element bound, which the product skips but the mirror scans).
func BenchmarkListenerScan(b *testing.B) {
	for _, path := range []string{"/form.html", "/corpus/inbox.html", "/corpus/datepicker.html", "/gen?n=500", "/gen?n=5000"} {
		b.Run(strings.TrimPrefix(path, "/"), func(b *testing.B) {
			p := open(b, path)
			for b.Loop() {
				p.reportListeners(b)
			}
		})
	}
}
