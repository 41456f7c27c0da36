package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// timedCall calls a tool and returns its structured result and duration.
func timedCall(b *testing.B, s *mcp.ClientSession, name string, args map[string]any) (map[string]any, time.Duration) {
	start := time.Now()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %+v", name, err, res)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out, d
}

// BenchmarkSnapshotGen: browser_snapshot (interactive) through MCP on the
// generated pages; reports p50/p99 and the text's size in characters, to be
// read against Playwright MCP's 32/195/794 ms and 28,215/292,351/1,201,187
// characters (notes/peers.md).
func BenchmarkSnapshotGen(b *testing.B) {
	for _, n := range []int{500, 5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := harness.Start(b)
			base := e.ServePages(map[string]string{"/": harness.GenPage(n)})
			s := e.MCP(b)
			tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
			args := map[string]any{"tab": tab, "max_chars": protocol.MaxMaxChars}
			res, _ := timedCall(b, s, protocol.MethodSnapshot, args) // warm-up: attach, inject
			cov, _ := res["coverage"].(map[string]any)
			chars, _ := cov["total"].(float64)
			samples := []time.Duration{}
			for b.Loop() {
				_, d := timedCall(b, s, protocol.MethodSnapshot, args)
				samples = append(samples, d)
			}
			reportLatency(b, samples)
			b.ReportMetric(chars, "chars")
		})
	}
}

// BenchmarkActions: a click → receipt, typing 100 characters, and a
// 10-step batch against 10 single calls.
func BenchmarkActions(b *testing.B) {
	e := harness.Start(b)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Act</title><button onclick="this.dataset.n=(+this.dataset.n||0)+1">Press</button><label>Field <input></label>`})
	s := e.MCP(b)
	tab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(b, s, tab, nil)
	button, field := refOf(b, text, "button", "Press"), refOf(b, text, "textbox", "Field")
	click := step("click", "ref", button)
	call := func(steps ...map[string]any) time.Duration {
		actions := make([]any, len(steps))
		for i, st := range steps {
			actions[i] = st
		}
		_, d := timedCall(b, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions})
		return d
	}
	b.Run("click", func(b *testing.B) {
		samples := []time.Duration{}
		for b.Loop() {
			samples = append(samples, call(click))
		}
		reportLatency(b, samples)
	})
	b.Run("type100", func(b *testing.B) {
		samples := []time.Duration{}
		for b.Loop() {
			samples = append(samples, call(step("fill", "ref", field, "text", strings.Repeat("a", 100))))
		}
		reportLatency(b, samples)
	})
	b.Run("batch10", func(b *testing.B) {
		batch := make([]map[string]any, 10)
		for i := range batch {
			batch[i] = click
		}
		samples := []time.Duration{}
		for b.Loop() {
			samples = append(samples, call(batch...))
		}
		reportLatency(b, samples)
	})
	b.Run("single10", func(b *testing.B) {
		samples := []time.Duration{}
		for b.Loop() {
			var total time.Duration
			for range 10 {
				total += call(click)
			}
			samples = append(samples, total)
		}
		reportLatency(b, samples)
	})
}
