package harness

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
)

// StopServiceWorker stops the extension's service worker the way Chrome
// does when it suspends one (its idle timeout, an update, DevTools' Stop),
// with the DevTools protocol's service-worker control
// ServiceWorker.stopAllWorkers sent on a page session, and returns once the
// worker target is gone and the host it had started has exited. It wakes
// nothing: what brings the worker back is the extension's own business
// (its watchdog alarm, or an event). It returns the stopped host's pid.
//
// Observed in Chromium 156: stopAllWorkers on a page session stops the
// extension's worker too (extensions share the profile's default storage
// partition), its native port closes, and the host sees EOF and exits.
func (e *Env) StopServiceWorker(t testing.TB) int {
	t.Helper()
	old := e.HostPID()
	if old == 0 {
		t.Fatal("no host pid in host.lock before stopping the worker")
	}
	if !e.ServiceWorkerRunning() {
		t.Fatal("the extension's service worker is not running before the stop")
	}
	// The harness's own DevTools session on the worker goes first: the
	// next Eval attaches to whichever worker runs then.
	e.sw.detach()
	ctx, cancel := context.WithTimeout(e.browser.ctx, evalTimeout)
	defer cancel()
	// The domain refuses stopAllWorkers until it is enabled ("ServiceWorker
	// domain not enabled").
	if _, err := chromedp.Call(ctx, serviceworker.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("ServiceWorker.enable: %v", err)
	}
	if _, err := chromedp.Call(ctx, serviceworker.StopAllWorkers, cdp.Empty{}); err != nil {
		t.Fatalf("ServiceWorker.stopAllWorkers: %v", err)
	}
	// The watchdog alarm can wake the worker again at any moment, so the
	// target's absence is checked before the host's exit, which is final.
	e.WaitFor(t, "the extension's service worker target to go", readyTimeout, func() bool { return !e.ServiceWorkerRunning() })
	e.WaitFor(t, "the host of the stopped worker to exit", readyTimeout, func() bool { return syscall.Kill(old, 0) != nil })
	return old
}

// ServiceWorkerRunning says whether the extension's service worker target
// exists now.
func (e *Env) ServiceWorkerRunning() bool {
	ctx, cancel := context.WithTimeout(e.browser.ctx, 5*time.Second)
	defer cancel()
	_, err := findServiceWorker(ctx)
	return err == nil
}
