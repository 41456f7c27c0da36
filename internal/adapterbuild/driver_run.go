package adapterbuild

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Test drivers of the core client (adapters/core/testdata): one AgentTab
// on a state directory for an agent session, one JSON line answered per
// JSON line read. The conformance test (internal/mcpserver), the e2e test
// and the benchmark (e2e) start them through StartDriver.
const (
	// DriverEntry: a tool call per line (conformance_driver.ts); its
	// capability file is DriverCapability(STATE_DIR, SESSION).
	DriverEntry = "testdata/conformance_driver.ts"
	// BenchDriverEntry: n timed calls per line (bench_driver.ts).
	BenchDriverEntry = "testdata/bench_driver.ts"
)

// Driver is a running test driver.
type Driver struct {
	in  io.WriteCloser
	out *bufio.Reader
}

// StartDriver bundles entry and runs it in node on stateDir for session,
// stopping it when tb ends.
func StartDriver(tb testing.TB, entry, stateDir, session string) *Driver {
	tb.Helper()
	core, err := CoreDir()
	if err != nil {
		tb.Fatal(err)
	}
	b, err := Bundle(core, entry)
	if err != nil {
		tb.Fatal(err)
	}
	script := filepath.Join(tb.TempDir(), "driver.mjs")
	if err := os.WriteFile(script, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("node", script, stateDir, session)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting node on %s: %v", entry, err)
	}
	tb.Cleanup(func() { in.Close(); cmd.Wait() })
	return &Driver{in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// Ask sends one line and returns the driver's answer line.
func (d *Driver) Ask(line []byte) ([]byte, error) {
	if _, err := d.in.Write(append(line, '\n')); err != nil {
		return nil, fmt.Errorf("writing to the driver: %w", err)
	}
	out, err := d.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("no answer from the driver: %w", err)
	}
	return out, nil
}
