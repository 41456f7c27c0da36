package host

import (
	"fmt"
	"sync/atomic"

	"github.com/agenttab/agenttab/protocol"
)

// lifecycle is the host's admission state, read on every request.
type lifecycle struct{ v atomic.Value }

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
		e.Lifecycle = s
		return e
	}
	e := protocol.Fail(protocol.CodeHostUnavailable, fmt.Sprintf("the AgentTab host is %s, not ready for browser work", s))
	e.Lifecycle = s
	return e
}
