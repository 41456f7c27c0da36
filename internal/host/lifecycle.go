package host

import (
	"fmt"
	"sync/atomic"

	"github.com/agenttab/agenttab/protocol"
)

// lifecycle is the host's admission state, read on every request, and
// who paused (a protocol.PauseReason; "" when not paused), so that the
// refusals can say what to do.
type lifecycle struct{ v, reason atomic.Value }

func (l *lifecycle) setReason(r protocol.PauseReason) { l.reason.Store(r) }

// pauseReason is who paused while paused or pausing, else "".
func (l *lifecycle) pauseReason() protocol.PauseReason {
	if s := l.get(); s != protocol.LifecyclePaused && s != protocol.LifecyclePausing {
		return ""
	}
	r, _ := l.reason.Load().(protocol.PauseReason)
	return r
}

func (l *lifecycle) set(s protocol.Lifecycle) { l.v.Store(s) }

func (l *lifecycle) get() protocol.Lifecycle {
	s, _ := l.v.Load().(protocol.Lifecycle)
	if s == "" {
		return protocol.LifecycleStarting
	}
	return s
}

// admit refuses browser work until the host is ready (spec 001), and
// while the user has paused AgentTab.
func (l *lifecycle) admit() *protocol.Error {
	s := l.get()
	if s == protocol.LifecycleReady {
		return nil
	}
	if s == protocol.LifecyclePaused || s == protocol.LifecyclePausing {
		e := protocol.Fail(protocol.CodePaused, "the user paused AgentTab; no browser work is admitted")
		if l.pauseReason() == protocol.PauseByDebuggerCancel {
			// The catalogue's recovery fits the user's Pause; this one
			// says what the user did and what undoes it (issue 12).
			e = protocol.NewError(protocol.CodePaused, protocol.OutcomeNotStarted,
				"the user clicked Cancel on Chrome's \"AgentTab started debugging this browser\" banner, which pauses AgentTab; no browser work is admitted",
				"Tell the user AgentTab stays paused until they press Resume in the AgentTab popup; wait for their word, then retry. AgentTab never attaches the debugger again by itself.")
		}
		e.Lifecycle = s
		return e
	}
	e := protocol.Fail(protocol.CodeHostUnavailable, fmt.Sprintf("the AgentTab host is %s, not ready for browser work", s))
	e.Lifecycle = s
	return e
}
