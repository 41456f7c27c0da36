package mcpserver

import (
	"context"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
)

// A host this adapter was connected to can go away without anyone asking:
// Chrome stops the extension's service worker (its idle timeout, an update,
// DevTools), the native port closes and the host exits (stdin EOF). The
// extension's watchdog alarm wakes the worker, which connects again, and
// Chrome starts a new host (extension/src/background/native/host-connection.ts).
// Alarms fire no sooner than 30 s after they are set (Chrome 120+), the
// host starts in 0.5–1.5 s (notes/chromium.md), so a call made right after
// the stop finds no socket for up to about 31 s. The adapter waits for the
// host's return, bounded by hostReturnWait, rather than fail a call the
// same agent's retry would have passed; reconnecting with no user action is
// what issue 15 asks. It waits once per loss: a host that does not return
// in time (the user quit Chrome) fails this call, and the calls after it
// fail at once until a host is reached again. Only a call waits: a probe
// for the tool list (core.probe) neither waits nor uses up the wait. An
// adapter that has never
// reached a host fails at once too (Chrome is not running, or AgentTab is
// not installed: the recovery text says what to do).
const (
	hostReturnWait = 40 * time.Second
	hostReturnPoll = 250 * time.Millisecond
)

// awaitHostReturn dials the socket until a host answers, hostReturnWait
// passes or ctx ends.
func awaitHostReturn(ctx context.Context, socket string, keep func(string) error) (*corerpc.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, hostReturnWait)
	defer cancel()
	for {
		cl, err := corerpc.DialClient(ctx, socket, keep)
		if err == nil {
			return cl, nil
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(hostReturnPoll):
		}
	}
}
