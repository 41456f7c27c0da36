package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// dumpOnFailure logs what a failing test needs to explain itself: the last
// of Chromium's output (extension load errors and native-messaging errors
// land there), the host's log and each MCP server's stderr. It runs after
// the browser stopped, so the output is complete.
func (e *Env) dumpOnFailure() {
	if !e.tb.Failed() {
		return
	}
	e.tb.Logf("==== Chromium output (last 200 lines) ====\n%s", tail(withoutNoise(e.output.String()), 200))
	hostLog := filepath.Join(e.StateDir, "host.log")
	switch data, err := os.ReadFile(hostLog); {
	case err == nil:
		e.tb.Logf("==== %s (last 500 lines) ====\n%s", hostLog, tail(string(data), 500))
	case errors.Is(err, fs.ErrNotExist):
		e.tb.Logf("==== %s: does not exist (did Chromium start the host?) ====", hostLog)
	default:
		e.tb.Logf("==== %s: %v ====", hostLog, err)
	}
	e.mu.Lock()
	logs := append([]namedLog(nil), e.logs...)
	e.mu.Unlock()
	for _, l := range logs {
		e.tb.Logf("==== %s (last 200 lines) ====\n%s", l.name, tail(l.buf.String(), 200))
	}
}

// Logs answers Chromium's output so far and every MCP server's stderr, for
// tests that check what must never be logged (host.log is under StateDir).
func (e *Env) Logs() string {
	var b strings.Builder
	b.WriteString(e.output.String())
	e.mu.Lock()
	logs := append([]namedLog(nil), e.logs...)
	e.mu.Unlock()
	for _, l := range logs {
		b.WriteString(l.buf.String())
	}
	return b.String()
}
