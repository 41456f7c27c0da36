package harness

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/chromedp/chromedp"
)

// launchTimeout bounds Chromium's start; a healthy start takes well under a
// second on the 2-core machines the notes were measured on.
const launchTimeout = 30 * time.Second

// browserProc is one running Chromium under chromedp.
type browserProc struct {
	ctx         context.Context // the browser's first chromedp context
	cancelCtx   context.CancelFunc
	cancelAlloc context.CancelFunc
	closed      sync.Once
}

// launchBrowser starts Chromium at execPath with chromium.Args. The
// allocator is built from scratch: chromedp.DefaultExecAllocatorOptions
// passes --disable-extensions, which would keep the extension (and so the
// host) from ever loading. chromedp adds its own debugging transport
// (--remote-debugging-pipe in this version) and the about:blank start page.
func launchBrowser(execPath string, o chromium.LaunchOptions, env []string, output *logBuffer) (*browserProc, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(execPath),
		chromedp.Env(env...),
		chromedp.CombinedOutput(output),
		// The worker's own log (its console) reaches the output the
		// harness dumps when a test fails: it says what the worker saw
		// when a wait on the browser timed out (the flakes that happen
		// only in loaded full runs).
		chromedp.Flag("enable-logging", "stderr"),
	}
	for _, arg := range chromium.Args(o) {
		name, value, err := parseFlag(arg)
		if err != nil {
			return nil, err
		}
		opts = append(opts, chromedp.Flag(name, value))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	b := &browserProc{ctx: ctx, cancelCtx: cancelCtx, cancelAlloc: cancelAlloc}

	// The first call starts the browser and must get the browser's own
	// context: chromedp ties the process to the context of that call, so a
	// timeout there would later kill the browser. Bound it from outside.
	started := make(chan error, 1)
	go func() {
		_, err := chromedp.Targets(ctx)
		started <- err
	}()
	select {
	case err := <-started:
		if err != nil {
			b.close()
			return nil, fmt.Errorf("starting %s: %w", execPath, err)
		}
	case <-time.After(launchTimeout):
		b.close()
		return nil, fmt.Errorf("starting %s: no DevTools connection after %s", execPath, launchTimeout)
	}
	return b, nil
}

// close shuts Chromium down gracefully (so it closes the native port and
// the host sees EOF on stdin and exits), then kills whatever is left and
// waits for the process to be gone.
// close quits the browser; a restarted Env closes the first one early, and
// the cleanup registered at launch closes it again, which does nothing.
func (b *browserProc) close() {
	b.closed.Do(func() {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		chromedp.Cancel(ctx)
		cancel()
		b.cancelCtx()
		b.cancelAlloc() // waits for the process to exit and its output to drain
	})
}

// parseFlag turns "--name=value" into chromedp.Flag(name, "value") and
// "--name" into chromedp.Flag(name, true), the two shapes chromium.Args
// produces.
func parseFlag(arg string) (string, any, error) {
	rest, ok := strings.CutPrefix(arg, "--")
	if !ok || rest == "" || strings.HasPrefix(rest, "=") {
		return "", nil, fmt.Errorf("browser argument %q is not a --flag", arg)
	}
	if name, value, ok := strings.Cut(rest, "="); ok {
		return name, value, nil
	}
	return rest, true, nil
}
