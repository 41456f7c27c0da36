package pageagent

import (
	"fmt"
	"slices"
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
// snapshot's size for notes/peers.md's generated pages; ns/op is a whole
// snapshot through CDP (walk, JSON, transfer). The walker time is the
// median over b.N runs. Times are reported, never asserted.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{500, 5000, 20000} {
		for _, mode := range []string{"interactive", "full", "readable"} {
			b.Run(fmt.Sprintf("gen%d/%s", n, mode), func(b *testing.B) {
				p := open(b, fmt.Sprintf("/gen?n=%d", n))
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
