package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// BenchmarkDragStep: one drag step → receipt on a jQuery UI sortable list
// (item 1 onto item 3 and back, released at the centre, which every build
// takes), the MCP call timed whole. The items are options, which every
// build gives refs.
func BenchmarkDragStep(b *testing.B) {
	e := harness.Start(b)
	base := e.ServeCorpus(map[string]string{"/": strings.ReplaceAll(strings.Replace(jqueryUISortablePage, `<ul id="list">`, `<ul id="list" role="listbox">`, 1), "<li>", `<li role="option">`)})
	s := e.MCP(b)
	tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(b, s, tab, nil)
	one, three := refOf(b, text, "option", "Item 1"), refOf(b, text, "option", "Item 3")
	samples := []time.Duration{}
	for n := 0; b.Loop(); n++ {
		from, to := one, three
		if n%2 == 1 {
			from, to = three, one
		}
		_, d := timedCall(b, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("drag", "ref", from, "to_ref", to)}})
		samples = append(samples, d)
	}
	reportLatency(b, samples)
}
