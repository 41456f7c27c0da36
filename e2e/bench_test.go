package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// reportLatency reports the median and 99th percentile of samples. Numbers
// are reported, never asserted (DESIGN.md "Testing tiers").
func reportLatency(b *testing.B, samples []time.Duration) {
	slices.Sort(samples)
	pct := func(p float64) float64 {
		i := int(float64(len(samples)-1) * p)
		return float64(samples[i].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkToolBrowserTabs: one MCP tool call, agent → adapter → Core RPC →
// host → extension (chrome.tabs.get of the owned tab) → back, over stdio as
// an agent makes it.
func BenchmarkToolBrowserTabs(b *testing.B) {
	e := harness.Start(b)
	base := e.ServePages(map[string]string{"/": page("bench")})
	s := e.MCP(b)
	ok(b, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	ctx := context.Background()
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: protocol.MethodTabs, Arguments: map[string]any{}})
		samples = append(samples, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("browser_tabs: %v %+v", err, res)
		}
	}
	b.StopTimer()
	reportLatency(b, samples)
	// Peak resident memory of the agenttab processes (host started by
	// Chrome, and the MCP adapter), for comparison with the peers' server
	// RSS in notes/peers.md.
	for role, mb := range peakRSS(b, e.Bin) {
		b.ReportMetric(mb, role+"-peak-rss-MB")
	}
}

// peakRSS reads VmHWM of every running process whose executable is bin,
// keyed by its role: "host" (started with the extension origin) or "mcp".
func peakRSS(b *testing.B, bin string) map[string]float64 {
	out := map[string]float64{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		exe, err := os.Readlink(filepath.Join(d, "exe"))
		if err != nil || exe != bin {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		role := "mcp"
		if strings.Contains(string(cmdline), "chrome-extension://") {
			role = "host"
		}
		status, _ := os.ReadFile(filepath.Join(d, "status"))
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				var n float64
				fmt.Sscanf(strings.TrimSpace(kb), "%f", &n)
				out[role] = max(out[role], n/1024)
			}
		}
	}
	if len(out) == 0 {
		b.Logf("no agenttab process found under /proc (not Linux?)")
	}
	return out
}

// BenchmarkCoreBrowserTabs: the same request without MCP: Core RPC socket →
// host → extension → back, comparable to the 0.4 ms floor measured for a
// trivial native round trip (notes/chromium.md).
func BenchmarkCoreBrowserTabs(b *testing.B) {
	e := harness.Start(b)
	base := e.ServePages(map[string]string{"/": page("bench")})
	ctx := context.Background()
	c, err := corerpc.DialClient(ctx, filepath.Join(e.StateDir, "core.sock"), func(string) error { return nil })
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Call(ctx, protocol.MethodOpen, protocol.OpenParams{URL: base + "/", Mode: protocol.OpenModeCreate}, nil); err != nil {
		b.Fatal(err)
	}
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		err := c.Call(ctx, protocol.MethodTabs, nil, nil)
		samples = append(samples, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	reportLatency(b, samples)
}
