package host

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

func TestHandoffValidation(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	long := strings.Repeat("é", protocol.MaxHandoffMessage+1)
	for _, tc := range []struct {
		name string
		p    protocol.HandoffParams
	}{
		{"no action", protocol.HandoffParams{Tab: tab}},
		{"unknown action", protocol.HandoffParams{Action: "focus", Tab: tab}},
		{"request without a tab", protocol.HandoffParams{Action: protocol.HandoffRequest, Reason: protocol.ReasonCaptcha}},
		{"unknown reason", protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: "bored"}},
		{"long message", protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: protocol.ReasonCaptcha, Message: long}},
		{"short expiry", protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: protocol.ReasonCaptcha, ExpiresInS: new(59)}},
		{"long expiry", protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: protocol.ReasonCaptcha, ExpiresInS: new(protocol.MaxNoticeSeconds + 1)}},
		{"resolve without a notice", protocol.HandoffParams{Action: protocol.HandoffResolve}},
		{"resolve with a bad notice id", protocol.HandoffParams{Action: protocol.HandoffResolve, NoticeID: "ntc_x"}},
		{"dismiss with a reason", protocol.HandoffParams{Action: protocol.HandoffDismiss, NoticeID: "ntc_0123456789abcdef0123456789abcdef", Reason: protocol.ReasonLogin}},
	} {
		if e := callErr(t, c.Client, protocol.MethodHandoff, tc.p); e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted {
			t.Errorf("%s: %+v", tc.name, e)
		}
	}
	other := &rigClient{r.client()}
	if e := callErr(t, other.Client, protocol.MethodHandoff, protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: protocol.ReasonCaptcha}); e.Code != protocol.CodeNotOwned {
		t.Errorf("another task's tab: %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeHandoff); n != 0 {
		t.Fatalf("%d handoffs sent", n)
	}
}

const canaryMessage = "CANARY-handoff-message-7d1f"

func TestHandoffRequestAndStatus(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	res := rpc[protocol.HandoffResult](t, c.Client, protocol.MethodHandoff, protocol.HandoffParams{Action: protocol.HandoffRequest, Tab: tab, Reason: protocol.ReasonCaptcha, Message: canaryMessage})
	if res.Notice == nil || res.Notice.Tab != tab || res.Outcome != protocol.OutcomeConfirmed || res.UserIdleState != protocol.IdleActive {
		t.Fatalf("request: %+v", res)
	}
	var sent protocol.ExtHandoffParams
	json.Unmarshal(r.ext.lastParams(protocol.NativeHandoff), &sent)
	if sent.TabID != r.ext.onlyTab(t) || sent.Message != canaryMessage || sent.ExpiresInMs != protocol.DefaultNoticeSeconds*1000 {
		t.Fatalf("sent %+v", sent)
	}
	// A notice of a tab the task no longer owns is left out of status.
	r.ext.mu.Lock()
	r.ext.review.notices = append(r.ext.review.notices, protocol.ExtNotice{NoticeID: "ntc_ffffffffffffffffffffffffffffffff", TabID: 9999, State: protocol.NoticeOpen})
	r.ext.mu.Unlock()
	st := rpc[protocol.HandoffResult](t, c.Client, protocol.MethodHandoff, protocol.HandoffParams{Action: protocol.HandoffStatus})
	if len(st.Notices) != 1 || st.Notices[0].Tab != tab || st.Outcome != protocol.OutcomeObserved {
		t.Fatalf("status: %+v", st)
	}
	r.stop()
	for _, f := range []string{r.dir.Audit(), r.dir.HostLog(), r.dir.DB(), r.dir.DB() + "-wal"} {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), canaryMessage) {
			t.Errorf("%s holds the handoff message", f)
		}
	}
}

func TestChallengeMembersAreCheckedAndAudited(t *testing.T) {
	good := protocol.Challenge{ChallengeID: "chl_1", Vendor: "cloudflare", Product: "turnstile", Kind: protocol.ChallengeWidget,
		Interaction: protocol.InteractionCheckbox, State: protocol.ChallengePresent, Confidence: protocol.ConfidenceHigh, Origin: "https://example.com", ElapsedMs: 5}
	for _, tc := range []struct {
		name string
		edit func(*protocol.Challenge)
	}{
		{"vendor", func(c *protocol.Challenge) { c.Vendor = "Cloud Flare" }},
		{"kind", func(c *protocol.Challenge) { c.Kind = "popup" }},
		{"origin with a path", func(c *protocol.Challenge) { c.Origin = "https://example.com/secret-path" }},
		{"resolved without how", func(c *protocol.Challenge) { c.State = protocol.ChallengeResolved }},
	} {
		bad := good
		tc.edit(&bad)
		if challengeProblem(bad) == "" {
			t.Errorf("%s: passed", tc.name)
		}
	}
	if p := challengeProblem(good); p != "" {
		t.Fatalf("good challenge refused: %s", p)
	}

	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	r.ext.reviewStage(t, canaryHandle, true)
	bad := good
	bad.Origin = "https://example.com/secret-path"
	r.ext.mu.Lock()
	r.ext.review.commitChallenge = &bad
	r.ext.mu.Unlock()
	if res := rpc[protocol.CommitResult](t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage}); res.Challenge != nil {
		t.Fatalf("a bad challenge passed: %+v", res.Challenge)
	}
	second := stageClick(t, r, c, tab, strings.Repeat("e", 64))
	r.ext.reviewStage(t, strings.Repeat("e", 64), true)
	r.ext.mu.Lock()
	r.ext.review.commitChallenge = &good
	r.ext.mu.Unlock()
	if res := rpc[protocol.CommitResult](t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: second}); res.Challenge == nil || *res.Challenge != good {
		t.Fatalf("challenge %+v", res.Challenge)
	}
	r.stop()
	b, _ := os.ReadFile(r.dir.Audit())
	if !strings.Contains(string(b), `"challenge":{"vendor":"cloudflare","product":"turnstile","kind":"widget"`) || strings.Contains(string(b), "secret-path") {
		t.Fatalf("audit: %s", b)
	}
}

func TestEndTaskFromThePopup(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	var ov protocol.TaskOverviewResult
	a := r.ext.ask(protocol.NativeTaskOverview, struct{}{})
	json.Unmarshal(a.Result, &ov)
	if len(ov.Tasks) != 1 || !ov.Tasks[0].Connected || ov.Tasks[0].IdleMs < 0 {
		t.Fatalf("overview %+v %v", ov, a.Error)
	}
	task := ov.Tasks[0].TaskID
	a = r.ext.ask(protocol.NativeEndTask, protocol.EndTaskParams{TaskID: task, CloseTabs: true})
	var end protocol.EndTaskResult
	json.Unmarshal(a.Result, &end)
	if a.Error != nil || end.Released != 1 || end.Closed != 1 {
		t.Fatalf("end task: %+v %v", end, a.Error)
	}
	if e := callErr(t, c.Client, protocol.MethodTabs, nil); e.Code != protocol.CodeTaskEnded {
		t.Fatalf("next call: %+v", e)
	}
	if got := rpc[protocol.TabsResult](t, c.Client, protocol.MethodTabs, nil); got.Task.ID == task || len(got.Tabs) != 0 {
		t.Fatalf("after task_ended: %+v", got)
	}
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageNotFound {
		t.Fatalf("the ended task's stage from the new task: %+v", e)
	}
	b, _ := os.ReadFile(r.dir.Audit())
	if !strings.Contains(string(b), `"method":"event.end_task"`) {
		t.Fatal("no end_task event")
	}
}

// End task behind an agent's long call answers task_busy within its bound
// (well inside the popup's wait) and ends nothing; once the call is done it
// ends the task.
func TestEndTaskBehindALongCallIsBusy(t *testing.T) {
	defer func(d time.Duration) { endTaskLockWait = d }(endTaskLockWait)
	endTaskLockWait = 200 * time.Millisecond
	var h *Host
	r := startRig(t, withHost(&h))
	c, tab := openOne(t, r)
	task := rpc[protocol.TabsResult](t, c.Client, protocol.MethodTabs, nil).Task.ID
	r.ext.mu.Lock()
	r.ext.actDelay = 2 * time.Second
	r.ext.mu.Unlock()
	acted := make(chan struct{})
	go func() {
		defer close(acted)
		c.Call(context.Background(), protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}}, nil)
	}()
	for count(r.ext.seen(), protocol.NativeAct) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	a := r.ext.ask(protocol.NativeEndTask, protocol.EndTaskParams{TaskID: task, CloseTabs: true})
	if a.Error == nil || a.Error.Code != protocol.CodeTaskBusy || a.Error.Outcome != protocol.OutcomeNotStarted || time.Since(start) > time.Second {
		t.Fatalf("end task behind an act: %s %+v after %s", a.Result, a.Error, time.Since(start))
	}
	<-acted
	if n := count(r.ext.seen(), protocol.NativeFinish); n != 0 {
		t.Fatalf("%d finishes sent", n)
	}
	if got := rpc[protocol.TabsResult](t, c.Client, protocol.MethodTabs, nil); got.Task.ID != task || len(got.Tabs) != 1 {
		t.Fatalf("the task after a busy End task: %+v", got)
	}
	if a := r.ext.ask(protocol.NativeEndTask, protocol.EndTaskParams{TaskID: task}); a.Error != nil {
		t.Fatalf("end task once the call is done: %v", a.Error)
	}
	if n := h.taskLocks.held(); n != 0 {
		t.Fatalf("%d task lines left", n)
	}
}

func TestDebuggerCancelPauseSaysSo(t *testing.T) {
	r := startRig(t)
	c, _ := openOne(t, r)
	r.ext.send(protocol.NativeEvent{Type: protocol.NativeTypeEvent, Event: protocol.EventPauseRequested,
		Params: protocol.PauseRequestedParams{Reason: protocol.PauseByDebuggerCancel}})
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := rpc[protocol.StatusResult](t, c.Client, protocol.MethodStatus, nil)
		if st.Lifecycle == protocol.LifecyclePaused && st.PauseReason == protocol.PauseByDebuggerCancel {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	e := callErr(t, c.Client, protocol.MethodTabs, nil)
	if e.Code != protocol.CodePaused || !strings.Contains(e.Message, "Cancel") || !strings.Contains(e.Recovery, "Resume") {
		t.Fatalf("refusal %+v", e)
	}
}
