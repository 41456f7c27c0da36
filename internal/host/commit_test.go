package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

const canaryHandle = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"

func stageReport(handle string) *protocol.ExtStage {
	return &protocol.ExtStage{Step: 0, ReviewHandle: handle, Effect: protocol.EffectSend,
		Fingerprint: strings.Repeat("f", 64), PreviewDigest: strings.Repeat("d", 64)}
}

// stageClick makes the fake stage the next click and runs it; it returns
// the stage id from the receipt.
func stageClick(t *testing.T, r *rig, c *rigClient, tab, handle string) string {
	t.Helper()
	r.ext.mu.Lock()
	r.ext.review.stageNext = stageReport(handle)
	r.ext.actSteps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepClick, Outcome: protocol.OutcomeStaged}}
	r.ext.mu.Unlock()
	res := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}})
	r.ext.mu.Lock()
	r.ext.actSteps = nil
	r.ext.mu.Unlock()
	st := res.Steps[0].Stage
	if res.Outcome != protocol.OutcomeStaged || st == nil || !strings.HasPrefix(st.Stage, "stg_") || st.Effect != protocol.EffectSend || st.ExpiresInMs != protocol.StageTTLMs {
		t.Fatalf("staged act: %+v", res)
	}
	return st.Stage
}

func commitErr(t *testing.T, c *rigClient, stage string) *protocol.Error {
	t.Helper()
	return callErr(t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage})
}

func TestStageApproveCommitRunsOnce(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)

	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageNotApproved || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("before approval: %+v", e)
	}
	if st := r.ext.reviewStage(t, canaryHandle, true); st != protocol.StageApproved {
		t.Fatalf("approval: %s", st)
	}
	if n := count(r.ext.seen(), protocol.NativeCommit); n != 0 {
		t.Fatalf("approval dispatched %d commits", n)
	}
	key := "0190b2a0-0000-7000-8000-0000000000c1"
	res := rpc[protocol.CommitResult](t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage, IdempotencyKey: key})
	if res.Outcome != protocol.OutcomeConfirmed || res.Stage != stage || res.Tab != tab || res.Effect != protocol.EffectSend {
		t.Fatalf("commit: %+v", res)
	}
	var sent protocol.ExtCommitParams
	json.Unmarshal(r.ext.lastParams(protocol.NativeCommit), &sent)
	sum := sha256.Sum256([]byte(canaryHandle))
	if sent.ReviewHandleDigest != hex.EncodeToString(sum[:]) || sent.Step.Kind != protocol.StepClick || sent.Step.Ref != "e1" || sent.ExpectedPageRevision != 1 {
		t.Fatalf("sent %+v", sent)
	}
	again := rpc[protocol.CommitResult](t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage, IdempotencyKey: key})
	if !again.Replay || again.Outcome != protocol.OutcomeConfirmed {
		t.Fatalf("same key: %+v", again)
	}
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageConsumed {
		t.Fatalf("second commit: %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeCommit); n != 1 {
		t.Fatalf("%d commits sent, want 1", n)
	}
}

func TestCommitRefusals(t *testing.T) {
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	r := startRig(t, withClock(clock))
	c, tab := openOne(t, r)
	handle := func(b byte) string { return strings.Repeat(string('a'+rune(b)), 64) }

	denied := stageClick(t, r, c, tab, handle(0))
	r.ext.reviewStage(t, handle(0), false)
	if e := commitErr(t, c, denied); e.Code != protocol.CodeStageDenied || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("denied: %+v", e)
	}

	other := &rigClient{r.client()}
	if e := commitErr(t, other, denied); e.Code != protocol.CodeStageNotFound {
		t.Fatalf("another task: %+v", e)
	}

	late := stageClick(t, r, c, tab, handle(1))
	r.ext.reviewStage(t, handle(1), true)
	mu.Lock()
	now = now.Add(protocol.StageTTLMs * time.Millisecond)
	mu.Unlock()
	if e := commitErr(t, c, late); e.Code != protocol.CodeStageExpired {
		t.Fatalf("expired: %+v", e)
	}

	moved := stageClick(t, r, c, tab, handle(2))
	r.ext.reviewStage(t, handle(2), true)
	r.ext.navigates(r.ext.onlyTab(t))
	deadline := time.Now().Add(5 * time.Second)
	for {
		e := commitErr(t, c, moved)
		if e.Code == protocol.CodeStageStale {
			break
		}
		if e.Code != protocol.CodeStageNotApproved && time.Now().After(deadline) {
			t.Fatalf("after navigation: %+v", e)
		}
		time.Sleep(10 * time.Millisecond)
	}

	if e := commitErr(t, c, "stg_nothing"); e.Code != protocol.CodeInvalidParams {
		t.Fatalf("bad id: %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeCommit); n != 0 {
		t.Fatalf("%d commits sent, want none", n)
	}
}

// The extension's recheck refuses: passed through, and the stage stays used.
func TestCommitPassesTheExtensionsRefusal(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	r.ext.reviewStage(t, canaryHandle, true)
	r.ext.mu.Lock()
	r.ext.review.commitErr = protocol.Fail(protocol.CodeStageTargetChanged, "the control changed")
	r.ext.mu.Unlock()
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageTargetChanged || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("refusal: %+v", e)
	}
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageConsumed {
		t.Fatalf("after a refusal: %+v", e)
	}
}

func TestYoloDiscardsStages(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	r.ext.reviewStage(t, canaryHandle, true)
	a := r.ext.ask(protocol.NativeYolo, protocol.YoloParams{On: true})
	var res protocol.YoloResult
	json.Unmarshal(a.Result, &res)
	if a.Error != nil || res.Discarded != 1 {
		t.Fatalf("yolo: %+v %s", a.Error, a.Result)
	}
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageDiscarded {
		t.Fatalf("after YOLO on: %+v", e)
	}
	// A hello with YOLO on discards too (switched while no host listened).
	dir := r.dir
	second := stageClick(t, r, c, tab, strings.Repeat("b", 64))
	r.stop()
	db, err := store.Open(dir.DB())
	if err != nil {
		t.Fatal(err)
	}
	task := rpcTaskOfStage(t, db, second)
	db.Close()
	r2 := startRig(t, withDir(dir), withFake(func(f *fakeExtension) { f.review.yolo = true }))
	r2.stop()
	db, _ = store.Open(dir.DB())
	defer db.Close()
	if st, _ := db.StageOf(context.Background(), task, second); st.State != protocol.StageDiscarded {
		t.Fatalf("after a YOLO hello: %s", st.State)
	}
}

func rpcTaskOfStage(t *testing.T, db *store.Store, stage string) string {
	t.Helper()
	tasks, err := db.ActiveTasks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if _, err := db.StageOf(context.Background(), task.ID, stage); err == nil {
			return task.ID
		}
	}
	t.Fatalf("no task holds %s", stage)
	return ""
}

// approvedBeforeRestart stages and approves a click, then stops the host;
// it returns what the next host needs: the state directory, the task's
// capability and id, the stage, and the browser's tabs for the next fake.
func approvedBeforeRestart(t *testing.T) (dir statedir.Dir, capability, taskID, stage string, browser rigOption) {
	t.Helper()
	dir = tempStateDir(t)
	r := startRig(t, withDir(dir))
	var k kept
	c := &rigClient{r.clientKeeping(k.keep)}
	opened := rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	stage = stageClick(t, r, c, opened.Tab.Tab, canaryHandle)
	r.ext.reviewStage(t, canaryHandle, true)
	r.ext.mu.Lock()
	tabs, owner, groups := r.ext.tabs, r.ext.owner, r.ext.groups
	r.ext.mu.Unlock()
	r.stop()
	return dir, k.last(t), opened.Task.ID, stage, withFake(func(f *fakeExtension) { f.tabs, f.owner, f.groups = tabs, owner, groups })
}

// A host killed between approval and commit: the approval is durable, and
// the commit runs once on the next host.
func TestApprovalSurvivesAHostRestart(t *testing.T) {
	dir, capability, _, stage, browser := approvedBeforeRestart(t)
	r2 := startRig(t, withDir(dir), browser)
	b := &rigClient{r2.client()}
	if res := resume(t, b.Client, capability); !res.Resumed {
		t.Fatalf("resume %+v", res)
	}
	res := rpc[protocol.CommitResult](t, b.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage})
	if res.Outcome != protocol.OutcomeConfirmed {
		t.Fatalf("commit after restart: %+v", res)
	}
	if e := commitErr(t, b, stage); e.Code != protocol.CodeStageConsumed {
		t.Fatalf("second commit: %+v", e)
	}
	if n := count(r2.ext.seen(), protocol.NativeCommit); n != 1 {
		t.Fatalf("%d commits, want 1", n)
	}
}

// A crash after the stage was consumed and before the answer was recorded
// (the key's record stays started): the key answers unknown, a new key
// stage_consumed, and nothing is sent again.
func TestACrashAfterConsumeIsNeverReplayed(t *testing.T) {
	dir, capability, taskID, stage, browser := approvedBeforeRestart(t)
	key := "0190b2a0-0000-7000-8000-0000000000c2"
	db, err := store.Open(dir.DB())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The arguments as the host digests them: the default filled in, the key cleared.
	raw, _ := json.Marshal(protocol.CommitParams{Stage: stage, ActionableTimeoutMs: new(protocol.DefaultActionableMs)})
	if _, err := db.BeginIdempotent(ctx, taskID, key, protocol.MethodCommit, audit.Digest(raw), time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := db.ConsumeStage(ctx, taskID, stage, time.Now()); err != nil || !ok {
		t.Fatalf("consume: %v %v", ok, err)
	}
	db.Close()

	r2 := startRig(t, withDir(dir), browser)
	b := &rigClient{r2.client()}
	resume(t, b.Client, capability)
	e := callErr(t, b.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage, IdempotencyKey: key})
	if e.Code != protocol.CodeIdempotencyInProgress || e.Outcome != protocol.OutcomeUnknown {
		t.Fatalf("same key after the crash: %+v", e)
	}
	if e := commitErr(t, b, stage); e.Code != protocol.CodeStageConsumed {
		t.Fatalf("new key after the crash: %+v", e)
	}
	if n := count(r2.ext.seen(), protocol.NativeCommit); n != 0 {
		t.Fatalf("%d commits sent after the crash", n)
	}
}

// No review handle reaches the audit, the host log or the state database.
func TestTheReviewHandleIsKeptNowhere(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	r.ext.reviewStage(t, canaryHandle, true)
	rpc[protocol.CommitResult](t, c.Client, protocol.MethodCommit, protocol.CommitParams{Stage: stage})
	r.stop()
	for _, f := range []string{r.dir.Audit(), r.dir.HostLog(), r.dir.DB(), r.dir.DB() + "-wal"} {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), canaryHandle) {
			t.Errorf("%s holds the review handle", f)
		}
	}
	audit, _ := os.ReadFile(r.dir.Audit())
	if !strings.Contains(string(audit), `"method":"event.approval"`) {
		t.Errorf("no approval event in the audit")
	}
}

// The user turns YOLO mode on as an act answers with a stage: the host
// hears the switch before it records the stage (the worst order). The
// stage is recorded discarded, so the agent's commit says act again, not
// ask the user about an entry the popup no longer shows; the next act's
// stage is pending as before.
func TestYoloOnBeforeTheStageIsRecorded(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	r.ext.mu.Lock()
	r.ext.review.yoloWithAct = true
	r.ext.mu.Unlock()
	stage := stageClick(t, r, c, tab, canaryHandle)
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageDiscarded || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("commit of a stage made as YOLO mode came on: %+v", e)
	}
	if a := r.ext.ask(protocol.NativeStageReview, protocol.StageReviewParams{ReviewHandle: canaryHandle, Approve: true}); a.Error != nil || !strings.Contains(string(a.Result), `"discarded"`) {
		t.Fatalf("approving it: %s %v", a.Result, a.Error)
	}
	next := stageClick(t, r, c, tab, strings.Repeat("b", 64))
	if e := commitErr(t, c, next); e.Code != protocol.CodeStageNotApproved {
		t.Fatalf("the next stage: %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeCommit); n != 0 {
		t.Fatalf("%d commits sent", n)
	}
}

// The host that heard YOLO mode on in the hello and never heard it go off
// (an off sent before the host welcomed the extension is lost) still
// records the extension's stages pending: only a switch to on heard while
// the act was out discards one.
func TestAStageAfterAMissedOff(t *testing.T) {
	r := startRig(t, withFake(func(f *fakeExtension) { f.review.yolo = true }))
	c, tab := openOne(t, r)
	stage := stageClick(t, r, c, tab, canaryHandle)
	if e := commitErr(t, c, stage); e.Code != protocol.CodeStageNotApproved {
		t.Fatalf("a stage after a missed off: %+v", e)
	}
}

// The hello's switch is no event of the user's (on is the default): it is
// audited only when it discarded stages, by count, and never as event.yolo.
func TestHelloYoloIsNotTheUsersSwitch(t *testing.T) {
	dir := tempStateDir(t)
	r := startRig(t, withDir(dir))
	c, tab := openOne(t, r)
	stageClick(t, r, c, tab, canaryHandle)
	r.stop()
	yolo := withFake(func(f *fakeExtension) { f.review.yolo = true })
	startRig(t, withDir(dir), yolo).stop()
	startRig(t, withDir(dir), yolo).stop()
	b, err := os.ReadFile(dir.Audit())
	if err != nil {
		t.Fatal(err)
	}
	var discards []map[string]any
	for line := range strings.Lines(string(b)) {
		var rec struct {
			Method string         `json:"method"`
			Args   map[string]any `json:"args_summary"`
		}
		json.Unmarshal([]byte(line), &rec)
		switch rec.Method {
		case "event.yolo":
			t.Errorf("a hello audited as the user's switch: %s", line)
		case "event.stages_discarded":
			discards = append(discards, rec.Args)
		}
	}
	if len(discards) != 1 || discards[0]["discarded"] != float64(1) || discards[0]["cause"] != "hello_yolo_on" {
		t.Fatalf("hello discards audited: %v", discards)
	}
}

// The review handle is what the extension makes, 32 random bytes in hex.
func TestReviewHandleForm(t *testing.T) {
	for h, ok := range map[string]bool{
		canaryHandle:             true,
		strings.Repeat("a", 32):  false,
		strings.Repeat("a", 128): false,
		strings.Repeat("A", 64):  false,
		strings.Repeat("a", 63):  false,
		strings.Repeat("a", 65):  false,
	} {
		if reviewHandleForm.MatchString(h) != ok {
			t.Errorf("%q: want %v", h, ok)
		}
	}
}
