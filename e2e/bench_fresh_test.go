package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// BenchmarkSnapshotFresh: browser_snapshot through MCP, timed for the
// snapshot call alone, on a document seen before ("repeat"), on one the
// tab just navigated to ("navigate": a navigate step, then the snapshot),
// and on a tab just opened ("open": browser_open, then the snapshot, the
// debugger's attach included). Small pages (≤ 200 elements) are most
// pages; issue 11 asks that their snapshot be no slower than Playwright
// MCP's (notes/peers.md) and the first one after a load is the one an
// agent always pays. Reported, never asserted.
func BenchmarkSnapshotFresh(b *testing.B) {
	pages := []struct {
		name, html string
		maxChars   int
	}{
		{"task", benchTaskPage(), 0},
		{"form80", benchFormPage(80), 0},
		{"gen500", harness.GenPage(500), protocol.MaxMaxChars},
		{"gen5000", harness.GenPage(5000), protocol.MaxMaxChars},
	}
	e := harness.Start(b)
	routes := map[string]string{}
	for _, p := range pages {
		routes["/"+p.name] = p.html
	}
	base := e.ServePages(routes)
	s := e.MCP(b)
	for _, p := range pages {
		args := func(tab string) map[string]any {
			a := map[string]any{"tab": tab}
			if p.maxChars > 0 {
				a["max_chars"] = p.maxChars
			}
			return a
		}
		url := base + "/" + p.name
		b.Run(p.name+"/repeat", func(b *testing.B) {
			tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": url}))
			res, _ := timedCall(b, s, protocol.MethodSnapshot, args(tab)) // warm-up: attach, inject
			samples := []time.Duration{}
			for b.Loop() {
				_, d := timedCall(b, s, protocol.MethodSnapshot, args(tab))
				samples = append(samples, d)
			}
			reportLatency(b, samples)
			act(b, s, tab, revisionOf(res), step("close"))
		})
		b.Run(p.name+"/navigate", func(b *testing.B) {
			tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": url}))
			res, _ := timedCall(b, s, protocol.MethodSnapshot, args(tab))
			rev := revisionOf(res)
			samples := []time.Duration{}
			i := 0
			for b.Loop() {
				i++
				b.StopTimer()
				rev = revisionOf(act(b, s, tab, rev, step("navigate", "url", fmt.Sprintf("%s?v=%d", url, i))))
				b.StartTimer()
				res, d := timedCall(b, s, protocol.MethodSnapshot, args(tab))
				rev = revisionOf(res)
				samples = append(samples, d)
			}
			reportLatency(b, samples)
			act(b, s, tab, rev, step("close"))
		})
		b.Run(p.name+"/open", func(b *testing.B) {
			samples, opens := []time.Duration{}, []time.Duration{}
			for b.Loop() {
				b.StopTimer()
				opened, o := timedCall(b, s, protocol.MethodOpen, map[string]any{"url": url})
				opens = append(opens, o)
				tab := handleOf(b, opened)
				b.StartTimer()
				res, d := timedCall(b, s, protocol.MethodSnapshot, args(tab))
				samples = append(samples, d)
				b.StopTimer()
				act(b, s, tab, revisionOf(res), step("close"))
				b.StartTimer()
			}
			reportLatency(b, samples)
			// browser_open itself, which the snapshot's time may not hide work in.
			b.ReportMetric(p50ms(opens), "open-p50-ms")
		})
	}
}

// benchTaskPage is a small page an agent does a task on: a heading, some
// text, a short list of links and a few controls (about 30 elements).
func benchTaskPage() string {
	var sb strings.Builder
	sb.WriteString(`<!doctype html><html><head><meta charset=utf-8><title>Task</title></head><body><header><nav><a href="#home">Home</a> <a href="#inbox">Inbox</a> <a href="#settings">Settings</a></nav></header><main><h1>Order 1042</h1><p>Check the items and confirm the order before noon.</p><ul>`)
	for i := range 6 {
		fmt.Fprintf(&sb, `<li><a href="#item%d">Item %d</a> <span>€%d.00</span></li>`, i, i, 10+i)
	}
	sb.WriteString(`</ul><label>Note <input name=note></label><label><input type=checkbox> Gift wrap</label><button type=button>Confirm</button><button type=button>Cancel</button></main><footer><p>Help: <a href="#help">contact us</a></p></footer></body></html>`)
	return sb.String()
}

// benchFormPage is a form of n labelled controls of the kinds a booking or
// sign-up form holds (text, email, tel, number, date, selects,
// checkboxes, radios, a textarea) and a submit button.
func benchFormPage(n int) string {
	var sb strings.Builder
	sb.WriteString(`<!doctype html><html><head><meta charset=utf-8><title>Form</title></head><body><h1>Booking</h1><form onsubmit="event.preventDefault();document.getElementById('result').textContent='sent'">`)
	kinds := []string{"text", "email", "tel", "number", "date", "select", "checkbox", "radio", "textarea", "url"}
	for i := range n - 1 {
		switch k := kinds[i%len(kinds)]; k {
		case "select":
			fmt.Fprintf(&sb, `<label>Choice %d <select name=s%d><option>One</option><option>Two</option><option>Three</option></select></label>`, i, i)
		case "checkbox", "radio":
			fmt.Fprintf(&sb, `<label><input type=%s name=c%d> Option %d</label>`, k, i/20, i)
		case "textarea":
			fmt.Fprintf(&sb, `<label>Comments %d <textarea name=t%d></textarea></label>`, i, i)
		default:
			fmt.Fprintf(&sb, `<label>Field %d <input type=%s name=f%d></label>`, i, k, i)
		}
		if i%10 == 9 {
			sb.WriteString("<hr>")
		}
	}
	sb.WriteString(`<button type=submit>Book</button></form><p id=result></p></body></html>`)
	return sb.String()
}
