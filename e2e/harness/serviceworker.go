package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agenttab/agenttab/extension"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// evalTimeout bounds finding the worker, attaching and one evaluation.
const evalTimeout = 20 * time.Second

// swURLPrefix is the extension's own origin: the service worker target to
// evaluate in is the one whose script is served from it.
const swURLPrefix = "chrome-extension://" + extension.ID + "/"

// serviceWorker is a DevTools session on the extension's service worker,
// kept between evaluations and re-made when the worker restarts (MV3
// workers stop when idle and come back as a new target).
type serviceWorker struct {
	browser *browserProc

	mu       sync.Mutex
	targetID target.ID
	ctx      context.Context
	cancel   context.CancelFunc
}

// findServiceWorker returns the extension's service worker target, if running.
func findServiceWorker(ctx context.Context) (target.ID, error) {
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return "", err
	}
	for _, info := range infos {
		if info.Type == "service_worker" && strings.HasPrefix(info.URL, swURLPrefix) {
			return info.TargetID, nil
		}
	}
	return "", fmt.Errorf("no service_worker target under %s among %d targets", swURLPrefix, len(infos))
}

// session returns a context attached to the current worker, re-attaching
// when the worker the cached session belongs to is gone. Checking the
// target list first (instead of retrying a failed evaluation) matters:
// an evaluation that failed halfway may already have had its effect
// (chrome.tabs.remove), and running it twice would test something else.
func (w *serviceWorker) session(deadline time.Time) (context.Context, error) {
	var lastErr error
	for {
		id, err := w.currentTarget(deadline)
		if err == nil {
			if w.ctx != nil && w.targetID == id {
				return w.ctx, nil
			}
			w.detachLocked()
			if err = w.attach(id, deadline); err == nil {
				return w.ctx, nil
			}
		}
		lastErr = err
		if time.Now().After(deadline) {
			return nil, lastErr
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (w *serviceWorker) currentTarget(deadline time.Time) (target.ID, error) {
	ctx, cancel := context.WithDeadline(w.browser.ctx, deadline)
	defer cancel()
	return findServiceWorker(ctx)
}

// attach opens a session on the worker target. The attaching call must run
// on the session's own context (chromedp ties the session's reader to it),
// so it is bounded from outside. WithDetachOnCancel matters: without it,
// ending the session would close the target, i.e. stop the worker and with
// it the native port and the host.
func (w *serviceWorker) attach(id target.ID, deadline time.Time) error {
	ctx, cancel := chromedp.NewContext(w.browser.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			cancel()
			return fmt.Errorf("attaching to the service worker %s: %w", id, err)
		}
	case <-time.After(time.Until(deadline)):
		cancel()
		return fmt.Errorf("attaching to the service worker %s: timed out", id)
	}
	// The target is listed as soon as the worker thread exists, before
	// Chrome has installed the extension bindings in its global scope; an
	// evaluation then sees "chrome is not defined". Wait for them.
	for {
		if ok, err := bindingsReady(ctx, deadline); err == nil && ok {
			break
		} else if time.Now().After(deadline) {
			cancel()
			return fmt.Errorf("the service worker %s never exposed chrome.runtime (last error: %v)", id, err)
		}
		time.Sleep(pollInterval)
	}
	w.targetID, w.ctx, w.cancel = id, ctx, cancel
	return nil
}

func bindingsReady(sctx context.Context, deadline time.Time) (bool, error) {
	ctx, cancel := context.WithDeadline(sctx, deadline)
	defer cancel()
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression:    `typeof chrome === "object" && !!chrome.runtime && chrome.runtime.id === ` + fmt.Sprintf("%q", extension.ID),
		ReturnByValue: new(true),
	})
	if err != nil {
		return false, err
	}
	return res.ExceptionDetails == nil && res.Result != nil && string(res.Result.Value) == "true", nil
}

func (w *serviceWorker) detach() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.detachLocked()
}

func (w *serviceWorker) detachLocked() {
	if w.cancel != nil {
		w.cancel()
	}
	w.targetID, w.ctx, w.cancel = "", nil, nil
}

// eval evaluates expr in the worker, awaiting a returned promise, and
// decodes its JSON value into out (nil to ignore it).
func (w *serviceWorker) eval(expr string, out any) error {
	if w.browser == nil {
		return errors.New("no browser is running")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	deadline := time.Now().Add(evalTimeout)
	sctx, err := w.session(deadline)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithDeadline(sctx, deadline)
	defer cancel()
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression:    expr,
		AwaitPromise:  new(true),
		ReturnByValue: new(true),
	})
	if err != nil {
		// The session may belong to a worker that just stopped; the next
		// evaluation re-attaches.
		w.detachLocked()
		return fmt.Errorf("evaluating %q in the service worker: %w", expr, err)
	}
	if ex := res.ExceptionDetails; ex != nil {
		msg := ex.Text
		if ex.Exception != nil && ex.Exception.Description != "" {
			msg = ex.Exception.Description
		}
		return fmt.Errorf("evaluating %q in the service worker threw: %s", expr, msg)
	}
	if out == nil {
		return nil
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return fmt.Errorf("evaluating %q in the service worker gave no JSON value (type %v)", expr, resultType(res.Result))
	}
	if err := json.Unmarshal(res.Result.Value, out); err != nil {
		return fmt.Errorf("decoding the value of %q (%s): %w", expr, res.Result.Value, err)
	}
	return nil
}

func resultType(r *runtime.RemoteObject) string {
	if r == nil {
		return "none"
	}
	return string(r.Type)
}
