package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/adapterbuild"
	"github.com/agenttab/agenttab/protocol"
)

// BenchmarkAdapterRoundTrip: the same tool calls through the adapters'
// TypeScript Core client in node (adapters/core AgentTab.call, timed inside
// node with performance.now(): Core RPC → host → extension → back) and
// through `agenttab mcp` over stdio (timed in Go: MCP → adapter → Core RPC →
// …), one harness, the same small page in each client's own tab (a tab
// belongs to its task, and each client is its own task). browser_tabs and
// browser_snapshot, p50/p99; the node process's RSS after the loop and its
// peak against agenttab mcp's peak. Reported, never asserted.
func BenchmarkAdapterRoundTrip(b *testing.B) {
	e := harness.Start(b)
	url := e.ServePages(map[string]string{"/task": benchTaskPage()}) + "/task"
	node := startBenchDriver(b, e.StateDir)
	s := e.MCP(b)
	nodeTab := handleOf(b, node.run(b, protocol.MethodOpen, map[string]any{"url": url}, 1).Last.StructuredContent)
	mcpTab := handleOf(b, ok(b, s, protocol.MethodOpen, map[string]any{"url": url}))

	tools := []struct {
		name string
		args func(tab string) map[string]any
	}{
		{protocol.MethodTabs, func(string) map[string]any { return map[string]any{} }},
		{protocol.MethodSnapshot, func(tab string) map[string]any { return map[string]any{"tab": tab} }},
	}
	for _, tool := range tools {
		b.Run(tool.name+"/core-ts", func(b *testing.B) {
			args := tool.args(nodeTab)
			node.run(b, tool.name, args, 1) // warm-up, as the MCP side has
			b.ResetTimer()
			r := node.run(b, tool.name, args, b.N)
			b.StopTimer()
			samples := make([]time.Duration, len(r.Samples))
			for i, ms := range r.Samples {
				samples[i] = time.Duration(ms * float64(time.Millisecond))
			}
			reportLatency(b, samples)
			b.ReportMetric(float64(r.RSS)/(1<<20), "node-rss-MB")
			b.ReportMetric(float64(r.MaxRSS)/(1<<20), "node-peak-rss-MB")
		})
		b.Run(tool.name+"/mcp", func(b *testing.B) {
			args := tool.args(mcpTab)
			timedCall(b, s, tool.name, args) // warm-up
			samples := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for range b.N {
				_, d := timedCall(b, s, tool.name, args)
				samples = append(samples, d)
			}
			b.StopTimer()
			reportLatency(b, samples)
			b.ReportMetric(peakRSS(b, e.Bin)["mcp"], "mcp-peak-rss-MB")
		})
	}
}

// benchDriver is adapters/core/testdata/bench_driver.ts running in node.
type benchDriver struct{ *adapterbuild.Driver }

// benchRun is the driver's answer to one request (bench_driver.ts).
type benchRun struct {
	Samples []float64 `json:"samples"`
	RSS     int64     `json:"rss"`
	MaxRSS  int64     `json:"maxRSS"`
	Last    struct {
		StructuredContent map[string]any `json:"structuredContent"`
	} `json:"last"`
	Error json.RawMessage `json:"error"`
}

// startBenchDriver bundles the driver through internal/adapterbuild (as
// the conformance driver is) and starts it in node on stateDir.
func startBenchDriver(b *testing.B, stateDir string) *benchDriver {
	return &benchDriver{adapterbuild.StartDriver(b, adapterbuild.BenchDriverEntry, stateDir, "bench-session")}
}

// run has the driver call tool n times in a row and returns its timings.
func (d *benchDriver) run(b *testing.B, tool string, args map[string]any, n int) benchRun {
	b.Helper()
	req, _ := json.Marshal(map[string]any{"tool": tool, "args": args, "n": n})
	line, err := d.Ask(req)
	if err != nil {
		b.Fatalf("%s: %v", tool, err)
	}
	var r benchRun
	if err := json.Unmarshal(line, &r); err != nil || r.Error != nil || len(r.Samples) != n {
		b.Fatalf("%s: %v %s", tool, err, line)
	}
	return r
}
