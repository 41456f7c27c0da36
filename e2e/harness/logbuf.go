package harness

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// logBuffer collects a subprocess's output. Chromium and the MCP servers
// write from their own goroutines while a failing test reads it, so it is
// locked.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tail returns the last n lines of s, saying how many it left out.
func tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "(empty)"
	}
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return "… " + strconv.Itoa(len(lines)-n) + " earlier lines left out …\n" + strings.Join(lines[len(lines)-n:], "\n")
}

// knownNoise marks Chromium output lines that notes/chromium.md records as
// harmless on these machines (no D-Bus; the Debian wrapper's shell test),
// and the start-up warnings --enable-logging adds (no GPU, no Bluetooth,
// no screen saver service; observed in Chromium 156 here). They would
// otherwise fill the 200 lines a failure shows.
var knownNoise = []string{
	":ERROR:dbus/", "/usr/bin/chromium: 9: [:",
	":WARNING:dbus/", ":WARNING:media/gpu/", ":WARNING:sandbox/policy/", ":WARNING:device/bluetooth/", ":WARNING:ui/base/idle/",
}

// withoutNoise drops knownNoise lines and says how many it dropped.
func withoutNoise(s string) string {
	var kept []string
	dropped := 0
	for line := range strings.Lines(s) {
		if slices.ContainsFunc(knownNoise, func(n string) bool { return strings.Contains(line, n) }) {
			dropped++
			continue
		}
		kept = append(kept, strings.TrimRight(line, "\n"))
	}
	if dropped > 0 {
		kept = append(kept, "("+strconv.Itoa(dropped)+" harmless D-Bus, wrapper and start-up lines left out)")
	}
	return strings.Join(kept, "\n")
}
