package host

import (
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/nativemsg"
	"github.com/agenttab/agenttab/protocol"
)

// fakeExtension plays the extension on the host's native pipe: a
// hand-written, in-memory Chrome with tabs and groups.
type fakeExtension struct {
	t   *testing.T
	r   *nativemsg.Reader
	raw io.Writer

	mu      sync.Mutex
	nextTab int
	tabs    map[int]*protocol.ExtTab // live Chrome tabs by id
	owner   map[int]string           // tab id → task id
	groups  map[string]int           // task id → group id
	methods []string                 // requests seen, in order
	// params is the last request's params, by method.
	params map[string]json.RawMessage
	// timeline is "arrived <method>" and "answered <method>", in order.
	timeline []string
	// failGroup makes the next open fail as a grouping failure would.
	failGroup bool
	// pageText is what a snapshot returns; waitDelay how long a wait takes.
	pageText string
	// pageClipped is what the snapshot's mode clipped (nil: nothing).
	pageClipped *protocol.ClippedText
	waitDelay   time.Duration
	// actSteps, when set, is the receipt of the next act; actDelay is how
	// long an act takes.
	actSteps []protocol.StepReceipt
	actDelay time.Duration
	// paused is the extension's persisted Pause (sent with the hello).
	paused bool
	// welcome is the host's answer to the hello.
	welcome protocol.NativeWelcome
	// pause is the fake's part of Pause (fakeext_pause_test.go).
	pause pauseFake
	// requests is every request as it arrived, in order.
	requests []seenRequest
	// openHold, when set, holds every open until it is closed.
	openHold chan struct{}
	// script, when set, answers each request in place of handle (the wire
	// transcripts of transcript_test.go).
	script func(seenRequest) (any, *protocol.Error)
	// review is the fake's part of Commit review and handoff
	// (fakeext_review_test.go).
	review reviewFake
	// creds is the fake's part of browser_credentials
	// (fakeext_credentials_test.go).
	creds credFake
}

// seenRequest is one request as the fake extension read it off the pipe.
type seenRequest struct {
	Method string
	Class  protocol.RequestClass
	Params json.RawMessage
}

// newWireFake takes the host's stdout (read side) and stdin (write side).
func newWireFake(t *testing.T, fromHost io.Reader, toHost io.Writer) *fakeExtension {
	return &fakeExtension{
		t: t, r: nativemsg.NewReader(fromHost), raw: toHost,
		nextTab: 100, tabs: map[int]*protocol.ExtTab{}, owner: map[int]string{}, groups: map[string]int{},
		params: map[string]json.RawMessage{},
	}
}

func (f *fakeExtension) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		f.t.Errorf("fake extension: encode: %v", err)
		return
	}
	frame := make([]byte, 4+len(b))
	frame[0], frame[1], frame[2], frame[3] = byte(len(b)), byte(len(b)>>8), byte(len(b)>>16), byte(len(b)>>24)
	copy(frame[4:], b)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.raw.Write(frame)
}

// hello sends the handshake.
func (f *fakeExtension) hello(version int, id string) {
	f.mu.Lock()
	paused := f.paused
	yolo := f.review.yolo
	f.mu.Unlock()
	f.send(protocol.NativeHello{Type: protocol.NativeTypeHello, ProtocolVersion: version, ExtensionID: id, ExtensionVersion: extension.Version, Paused: paused, Yolo: yolo})
}

// serve answers requests until the pipe closes.
func (f *fakeExtension) serve() {
	for {
		body, err := f.r.Read()
		if err != nil {
			return
		}
		var req struct {
			Type   string                `json:"type"`
			ID     int64                 `json:"id"`
			Method string                `json:"method"`
			Params json.RawMessage       `json:"params"`
			Class  protocol.RequestClass `json:"class"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			continue
		}
		if req.Type == protocol.NativeTypeResponse {
			f.answered(body)
			continue
		}
		if req.Type == protocol.NativeTypeWelcome {
			f.mu.Lock()
			json.Unmarshal(body, &f.welcome)
			f.mu.Unlock()
		}
		if req.Type != protocol.NativeTypeRequest {
			continue
		}
		f.mu.Lock()
		f.methods = append(f.methods, req.Method)
		f.params[req.Method] = req.Params
		f.timeline = append(f.timeline, "arrived "+req.Method)
		seen := seenRequest{req.Method, req.Class, req.Params}
		f.requests = append(f.requests, seen)
		answer := f.script
		f.mu.Unlock()
		// Requests are answered concurrently, as the real extension
		// answers different tasks (and reads) concurrently.
		go func() {
			if answer == nil {
				answer = func(r seenRequest) (any, *protocol.Error) { return f.handle(r.Method, r.Params) }
			}
			result, perr := answer(seen)
			f.mu.Lock()
			f.timeline = append(f.timeline, "answered "+req.Method)
			f.mu.Unlock()
			f.send(protocol.NativeResponse{Type: protocol.NativeTypeResponse, ID: req.ID, Result: result, Error: perr})
		}()
	}
}

func (f *fakeExtension) handle(method string, params json.RawMessage) (any, *protocol.Error) {
	if res, perr, handled := f.reviewHook(method, params); handled {
		return res, perr
	}
	if res, perr, handled := f.pauseHook(method, params); handled {
		return res, perr
	}
	if res, perr, handled := f.credentialHook(method, params); handled {
		return res, perr
	}
	if method == protocol.NativeAct {
		f.mu.Lock()
		d := f.actDelay
		f.mu.Unlock()
		time.Sleep(d)
		f.yoloBeforeAnswer()
	}
	if method == protocol.NativeOpen {
		f.mu.Lock()
		hold := f.openHold
		f.mu.Unlock()
		if hold != nil {
			<-hold
		}
	}
	if method == protocol.NativeWait {
		f.mu.Lock()
		d := f.waitDelay
		f.mu.Unlock()
		time.Sleep(d)
		return protocol.ExtWaitResult{Satisfied: true, ElapsedMs: int(d / time.Millisecond), Revision: 1}, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case protocol.NativeSnapshot:
		var p protocol.ExtSnapshotParams
		json.Unmarshal(params, &p)
		text := f.pageText
		res := protocol.ExtSnapshotResult{URL: "https://example.com/", Title: "Example", Revision: 1, RefEpoch: 1, Total: len(text)}
		if len(text) > p.CaptureChars {
			text, res.Truncated = text[:p.CaptureChars], true
		}
		res.Text = text
		res.Clipped = f.pageClipped
		if p.Screenshot != protocol.ScreenshotNone {
			res.ScreenshotPNG = "iVBORw0KGgo=" // the PNG signature
		}
		return res, nil
	case protocol.NativeAct:
		var p protocol.ExtActParams
		json.Unmarshal(params, &p)
		steps := f.actSteps
		if steps == nil {
			steps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepClick, Outcome: protocol.OutcomeConfirmed}}
		}
		res := protocol.ExtActResult{Steps: steps, Revision: p.ExpectedPageRevision, URL: "https://example.com/", Title: "Example", Staged: f.review.stageNext}
		f.review.stageNext = nil
		if tab, ok := f.tabs[p.TabID]; ok {
			// A navigate step moves the tab to its next page revision, as
			// in Chrome; the receipt reports the tab as Chrome then has it.
			for _, s := range p.Actions {
				if s.Kind == protocol.StepNavigate {
					tab.URL, tab.Title = s.URL, "Title of "+s.URL
					tab.Revision++
				}
			}
			res.URL, res.Title, res.Revision = tab.URL, tab.Title, tab.Revision
		}
		return res, nil
	case protocol.NativePause, protocol.NativeUnpause:
		f.paused = method == protocol.NativePause
		return protocol.ExtPauseResult{Paused: f.paused}, nil
	case protocol.NativeReconcile:
		var p protocol.ReconcileParams
		json.Unmarshal(params, &p)
		res := protocol.ReconcileResult{Kept: []protocol.ExtTab{}, Found: []protocol.FoundTab{}, Revoked: []protocol.Revocation{}}
		listed, hostTabs := map[string]bool{}, map[int]bool{}
		for _, task := range p.Tasks {
			listed[task.Task.TaskID] = true
			for _, tab := range task.Tabs {
				hostTabs[tab.TabID] = true
				if live, ok := f.tabs[tab.TabID]; ok && f.owner[tab.TabID] == task.Task.TaskID {
					res.Kept = append(res.Kept, *live)
				} else {
					res.Revoked = append(res.Revoked, protocol.Revocation{TaskID: task.Task.TaskID, TabID: tab.TabID, Reason: protocol.RevokeClosed})
				}
			}
		}
		// A tab granted to a listed task that the host lists nowhere is
		// found, as the extension's reconcile.ts reports it.
		for id, task := range f.owner {
			if live, ok := f.tabs[id]; ok && listed[task] && !hostTabs[id] {
				res.Found = append(res.Found, protocol.FoundTab{TaskID: task, Source: "created", Tab: *live})
			}
		}
		return res, nil
	case protocol.NativeOpen:
		var p protocol.ExtOpenParams
		json.Unmarshal(params, &p)
		if f.failGroup {
			f.failGroup = false
			// The extension's messages quote the URL they were given.
			return nil, protocol.NewError(protocol.CodeGroupFailed, protocol.OutcomeNotStarted, "grouping the tab for "+p.URL+" failed", "retry")
		}
		f.nextTab++
		g, ok := f.groups[p.Task.TaskID]
		if !ok {
			g = 500 + len(f.groups)
			f.groups[p.Task.TaskID] = g
		}
		tab := &protocol.ExtTab{TabID: f.nextTab, WindowID: 1, GroupID: g, URL: p.URL, Title: "Title of " + p.URL, Route: protocol.RouteFull, Revision: 1}
		f.tabs[tab.TabID] = tab
		f.owner[tab.TabID] = p.Task.TaskID
		return protocol.ExtOpenResult{Tab: *tab}, nil
	case protocol.NativeTabs:
		var p protocol.ExtTabsParams
		json.Unmarshal(params, &p)
		res := protocol.ExtTabsResult{Tabs: []protocol.ExtTab{}, Revoked: []protocol.Revocation{}}
		for _, id := range p.TabIDs {
			if live, ok := f.tabs[id]; ok && f.owner[id] == p.TaskID {
				res.Tabs = append(res.Tabs, *live)
			} else {
				res.Revoked = append(res.Revoked, protocol.Revocation{TaskID: p.TaskID, TabID: id, Reason: protocol.RevokeClosed})
			}
		}
		return res, nil
	case protocol.NativeFinish:
		var p protocol.ExtFinishParams
		json.Unmarshal(params, &p)
		res := protocol.ExtFinishResult{Released: []int{}, Closed: []int{}}
		for id, owner := range f.owner {
			if owner != p.TaskID {
				continue
			}
			delete(f.owner, id)
			res.Released = append(res.Released, id)
		}
		for _, id := range p.Close {
			delete(f.tabs, id)
			res.Closed = append(res.Closed, id)
		}
		return res, nil
	case protocol.NativeDeveloper:
		return protocol.ExtDeveloperResult{Result: map[string]any{"value": developerResultCanary}}, nil
	}
	return nil, protocol.NewError(protocol.CodeUnknownMethod, protocol.OutcomeNotStarted, "unknown method "+method, "")
}

// userCloses simulates the user closing a tab: Chrome's state changes and
// the extension reports the revocation as an event.
func (f *fakeExtension) userCloses(tabID int) {
	f.mu.Lock()
	task := f.owner[tabID]
	delete(f.tabs, tabID)
	delete(f.owner, tabID)
	f.mu.Unlock()
	f.send(protocol.NativeEvent{Type: protocol.NativeTypeEvent, Event: protocol.EventRevoked,
		Params: protocol.Revocation{TaskID: task, TabID: tabID, Reason: protocol.RevokeClosed}})
}

// unrecorded simulates an open the host died waiting for: the extension
// made and grouped a tab for task, and the host never heard of it.
func (f *fakeExtension) unrecorded(task, url string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextTab++
	id := f.nextTab
	f.tabs[id] = &protocol.ExtTab{TabID: id, WindowID: 1, GroupID: f.groups[task], URL: url, Route: protocol.RouteFull, Revision: 3}
	f.owner[id] = task
	return id
}

// lastParams returns the params of the last request of method.
func (f *fakeExtension) lastParams(method string) json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.params[method]
}

// seenRequests returns every request so far, in the order they arrived.
func (f *fakeExtension) seenRequests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.requests...)
}

func (f *fakeExtension) seen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.methods...)
}

// pageOpens simulates a page in opener opening a tab that the extension
// took into task (which it reports in the child event, truthfully or not).
func (f *fakeExtension) pageOpens(opener int, task string) int {
	f.mu.Lock()
	f.nextTab++
	id := f.nextTab
	tab := protocol.ExtTab{TabID: id, WindowID: 1, GroupID: f.groups[task], URL: "https://example.com/popup", Route: protocol.RouteFull, Revision: 1}
	f.tabs[id] = &tab
	f.owner[id] = task
	f.mu.Unlock()
	f.send(protocol.NativeEvent{Type: protocol.NativeTypeEvent, Event: protocol.EventChild,
		Params: protocol.ChildNotice{TaskID: task, OpenerTabID: opener, Tab: tab}})
	return id
}
