package host

import (
	"encoding/json"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// pauseFake is the fake extension's part of Pause, as the real one
// behaves (extension/src/background/pause.ts, adoptions.ts): an adoption
// request waits for the user until a Pause begins (pausing, or pause
// itself) and then ends paused, not_started; an act can be held in flight
// until the test lets it go.
type pauseFake struct {
	// begun is closed when the extension hears pausing or pause.
	begun chan struct{}
	// actHold, when set, holds every act until it is closed.
	actHold chan struct{}
}

// pauseHook serves what pauseFake owns; handled is false for the rest,
// which the fake's main switch serves (pause itself included).
func (f *fakeExtension) pauseHook(method string, params json.RawMessage) (res any, perr *protocol.Error, handled bool) {
	f.mu.Lock()
	if f.pause.begun == nil {
		f.pause.begun = make(chan struct{})
	}
	begun, hold := f.pause.begun, f.pause.actHold
	if method == protocol.NativePausing || method == protocol.NativePause {
		select {
		case <-begun:
		default:
			close(begun)
		}
	}
	f.mu.Unlock()
	switch method {
	case protocol.NativePausing:
		f.mu.Lock()
		f.paused = true
		f.mu.Unlock()
		return protocol.ExtPauseResult{Paused: true}, nil, true
	case protocol.NativeAct:
		if hold != nil {
			<-hold
		}
	case protocol.NativeAdopt:
		var p protocol.ExtAdoptParams
		json.Unmarshal(params, &p)
		select {
		case <-begun:
			return nil, protocol.NewError(protocol.CodePaused, protocol.OutcomeNotStarted, "the user paused AgentTab", "Wait for the user to resume."), true
		case <-time.After(time.Duration(p.TimeoutMs) * time.Millisecond):
			return nil, protocol.NewError(protocol.CodeNeedsUser, protocol.OutcomeNotStarted, "no answer", "Ask the user."), true
		}
	}
	return nil, nil, false
}
