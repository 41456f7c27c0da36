package mcpserver

import (
	"context"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// A host that is starting, handshaking or reconciling (Chrome just
// restarted it) becomes ready within moments; spec 001: "callers must
// retry only after it becomes ready". The adapter waits for that, up to
// readyWait, and sends a refused request once more. A paused host is the
// user's decision and is reported at once.
const (
	readyWait = 15 * time.Second
	readyPoll = 200 * time.Millisecond
)

// starting says whether a refusal is a host on its way to ready.
func starting(pe *protocol.Error) bool {
	if pe.Code != protocol.CodeHostUnavailable || pe.Outcome != protocol.OutcomeNotStarted {
		return false
	}
	switch pe.Lifecycle {
	case protocol.LifecycleStarting, protocol.LifecycleHandshaking, protocol.LifecycleReconciling:
		return true
	}
	return false
}

// awaitReady polls status until the host is ready; false when it did not
// become ready in time (or moved to another state, such as paused).
func awaitReady(ctx context.Context, cl *corerpc.Client) bool {
	ctx, cancel := context.WithTimeout(ctx, readyWait)
	defer cancel()
	for {
		var st protocol.StatusResult
		if err := cl.Call(ctx, protocol.MethodStatus, nil, &st); err != nil {
			return false
		}
		switch st.Lifecycle {
		case protocol.LifecycleReady:
			return true
		case protocol.LifecycleStarting, protocol.LifecycleHandshaking, protocol.LifecycleReconciling:
		default:
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(readyPoll):
		}
	}
}
