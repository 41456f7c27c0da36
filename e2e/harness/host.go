package harness

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

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

// ReloadExtension does to AgentTab what an extension reload (an update)
// does: the worker stops with its storage.session cleared, its native port
// closes (so the host exits), and the next event starts a fresh worker,
// which connects and makes Chrome start a new host; it returns once that
// host is ready. Observed in headless Chromium 156: chrome.runtime.reload()
// of an extension loaded with --load-extension unloads it and never brings
// it back, so the reload itself cannot be the test's lever.
func (e *Env) ReloadExtension(t testing.TB) {
	t.Helper()
	old := e.HostPID()
	e.Eval(t, `chrome.storage.session.clear().then(() => null)`, nil)
	e.sw.mu.Lock()
	id := e.sw.targetID
	e.sw.mu.Unlock()
	if _, err := chromedp.CallBrowser(e.browser.ctx, target.CloseTarget, target.CloseTargetParams{TargetID: id}); err != nil {
		t.Fatalf("stopping the worker: %v", err)
	}
	e.WaitFor(t, "the old host to exit", readyTimeout, func() bool { return syscall.Kill(old, 0) != nil })
	// A tabs.onCreated listener wakes the worker.
	if _, err := chromedp.CallBrowser(e.browser.ctx, target.CreateTarget, target.CreateTargetParams{URL: "about:blank"}); err != nil {
		t.Fatalf("waking the worker: %v", err)
	}
	e.WaitFor(t, "Chrome to start a new host", readyTimeout, func() bool {
		pid := e.HostPID()
		return pid != 0 && pid != old
	})
	e.waitReady(t)
}
