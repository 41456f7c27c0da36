package host

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// reviewFake is the fake extension's part of Commit review and handoff, as
// the real one behaves (extension/src/background/review, notices): it
// stages the next act's step when told, runs commits, keeps notices, and
// sends the popup's requests to the host.
type reviewFake struct {
	// stageNext, when set, is the next act's stage report.
	stageNext *protocol.ExtStage
	// yolo is sent with the hello.
	yolo bool
	// yoloWithAct, when set, has the user turn YOLO mode on as the next act
	// answers (yoloBeforeAnswer).
	yoloWithAct bool
	// commitErr, when set, refuses every commit (the extension's recheck).
	commitErr *protocol.Error
	// commitChallenge is put on every commit answer.
	commitChallenge *protocol.Challenge
	// notices are the handoff requests' answers by tab id.
	notices []protocol.ExtNotice
	nextID  int64
	waiting map[int64]chan hostAnswer
}

func (f *fakeExtension) reviewHook(method string, params json.RawMessage) (any, *protocol.Error, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case protocol.NativeCommit:
		if f.review.commitErr != nil {
			return nil, f.review.commitErr, true
		}
		var p protocol.ExtCommitParams
		json.Unmarshal(params, &p)
		rev := int64(1)
		if tab, ok := f.tabs[p.TabID]; ok {
			rev = tab.Revision
		}
		return protocol.ExtActResult{Steps: []protocol.StepReceipt{{Index: 0, Kind: p.Step.Kind, Outcome: protocol.OutcomeConfirmed}},
			Revision: rev, URL: "https://example.com/", Title: "Example", Challenge: f.review.commitChallenge}, nil, true
	case protocol.NativeHandoff:
		var p protocol.ExtHandoffParams
		json.Unmarshal(params, &p)
		res := protocol.ExtHandoffResult{UserIdleState: protocol.IdleActive}
		if p.Action == protocol.HandoffRequest {
			n := protocol.ExtNotice{NoticeID: "ntc_0123456789abcdef0123456789abcdef", TabID: p.TabID, Reason: p.Reason, State: protocol.NoticeOpen, Origin: "https://example.com", ExpiresInMs: p.ExpiresInMs}
			f.review.notices = append(f.review.notices, n)
			res.Notice = &n
		} else {
			res.Notices = f.review.notices
		}
		return res, nil, true
	}
	return nil, nil, false
}

// yoloBeforeAnswer, when yoloWithAct is set, sends `yolo {on:true}` and
// waits for the host's answer before the act's answer goes out: the worst
// order on the host, the discard before the stage is recorded.
func (f *fakeExtension) yoloBeforeAnswer() {
	f.mu.Lock()
	on := f.review.yoloWithAct
	f.review.yoloWithAct = false
	f.mu.Unlock()
	if on {
		f.ask(protocol.NativeYolo, protocol.YoloParams{On: true})
	}
}

// hostAnswer is the host's response to one of the extension's requests.
type hostAnswer struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *protocol.Error `json:"error"`
}

// ask sends the host one of the extension's requests and waits for the answer.
func (f *fakeExtension) ask(method string, params any) hostAnswer {
	f.mu.Lock()
	if f.review.waiting == nil {
		f.review.waiting = map[int64]chan hostAnswer{}
	}
	f.review.nextID++
	id := f.review.nextID
	ch := make(chan hostAnswer, 1)
	f.review.waiting[id] = ch
	f.mu.Unlock()
	f.send(protocol.NativeRequest{Type: protocol.NativeTypeRequest, ID: id, Method: method, Params: params})
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		f.t.Fatalf("the host did not answer %s", method)
		return hostAnswer{}
	}
}

// answered delivers a host's response to ask.
func (f *fakeExtension) answered(body []byte) {
	var r hostAnswer
	if json.Unmarshal(body, &r) != nil {
		return
	}
	f.mu.Lock()
	ch := f.review.waiting[r.ID]
	delete(f.review.waiting, r.ID)
	f.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// review approves or denies the stage of handle as the popup would, and
// returns the stage's state.
func (f *fakeExtension) reviewStage(t *testing.T, handle string, approve bool) protocol.StageState {
	t.Helper()
	r := f.ask(protocol.NativeStageReview, protocol.StageReviewParams{ReviewHandle: handle, Approve: approve})
	if r.Error != nil {
		t.Fatalf("stage_review: %v", r.Error)
	}
	var res protocol.StageReviewResult
	json.Unmarshal(r.Result, &res)
	return res.State
}
