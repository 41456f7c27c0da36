package harness

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// HostPID is the pid the serving host wrote into STATE/host.lock (0 when
// there is none yet).
func (e *Env) HostPID() int {
	b, err := os.ReadFile(filepath.Join(e.StateDir, "host.lock"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// KillHost kills the host with SIGKILL, as a crash would, and waits until
// Chrome has started a new one (the extension reconnects) and it is ready.
func (e *Env) KillHost(t testing.TB) {
	t.Helper()
	old := e.HostPID()
	if old == 0 {
		t.Fatal("no host pid in host.lock")
	}
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatalf("killing the host (pid %d): %v", old, err)
	}
	e.WaitFor(t, "Chrome to start a new host", readyTimeout, func() bool {
		pid := e.HostPID()
		return pid != 0 && pid != old
	})
	// Ready comes after the handshake and the reconciliation.
	e.waitReady(t)
}

// RestartBrowser closes Chromium as a user quits it and launches it again
// on the same profile and state directory; it returns once the new host
// has finished its start, in lifecycle ready or paused (a Pause survives).
func (e *Env) RestartBrowser(t testing.TB) {
	t.Helper()
	old := e.HostPID()
	e.sw.detach()
	e.browser.close()
	e.WaitFor(t, "the old host to exit", readyTimeout, func() bool {
		return old == 0 || syscall.Kill(old, 0) != nil
	})
	e.launch(t, e.browserPath, e.Installed.ExtensionDir)
	e.waitLifecycle(t, protocol.LifecycleReady, protocol.LifecyclePaused)
}
