package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// Stages: a step the extension did not run because YOLO mode is off and
// its target has a recognised effect (protocol/commit.go). The extension
// reports it on its act answer (ExtActResult.Staged); the host records it
// (store/stages.go: task, tab, revision, the step, effect, fingerprint,
// preview digest, the review handle's SHA-256, five minutes) and gives the
// agent only the stage's id on the step's receipt (StageInfo).

var (
	// reviewHandleForm is exactly what the extension makes: 32 random bytes
	// in lower-case hex (protocol.ReviewHandleBytes).
	reviewHandleForm = regexp.MustCompile(fmt.Sprintf(`^[0-9a-f]{%d}$`, 2*protocol.ReviewHandleBytes))
	// hexDigestForm: the fingerprint and the preview digest are hex SHA-256.
	hexDigestForm = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// stageIDForm is what newStageID makes.
	stageIDForm = regexp.MustCompile(`^` + protocol.HandlePrefixStage + `[0-9a-f]{32}$`)
)

func newStageID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand crashes instead)
	return protocol.HandlePrefixStage + hex.EncodeToString(b)
}

// recordStaged records the stage an act answer reports and puts its id on
// the staged step's receipt; epoch is yoloEpoch from before the act was
// sent. A report that does not check, or that the store cannot record,
// turns that receipt into a failure (nothing ran: the step was staged, not
// executed), as does a staged receipt without one.
func (h *Host) recordStaged(ctx context.Context, epoch uint64, task store.Task, tab store.OwnedTab, actions []protocol.Step, ext *protocol.ExtActResult) {
	staged := ext.Staged
	ext.Staged = nil // the preview's digest and the handle go no further
	for i := range ext.Steps {
		r := &ext.Steps[i]
		if r.Outcome != protocol.OutcomeStaged {
			continue
		}
		var perr *protocol.Error
		if staged == nil || staged.Step != r.Index {
			perr = internalError("the extension staged a step without reporting it", fmt.Errorf("step %d", r.Index))
		} else {
			r.Stage, perr = h.recordStage(ctx, epoch, task, tab, actions, ext.Revision, *staged, r.Kind)
		}
		if perr != nil {
			r.Outcome, r.Error = protocol.OutcomeNotStarted, perr
		}
	}
}

// recordStage checks the extension's report and records the stage.
func (h *Host) recordStage(ctx context.Context, epoch uint64, task store.Task, tab store.OwnedTab, actions []protocol.Step, revision int64, st protocol.ExtStage, kind protocol.StepKind) (*protocol.StageInfo, *protocol.Error) {
	if st.Step < 0 || st.Step >= len(actions) || actions[st.Step].Kind != kind {
		return nil, badStageReport("step")
	}
	if bad := stageReportProblem(st); bad != "" {
		return nil, badStageReport(bad)
	}
	step, err := json.Marshal(actions[st.Step])
	if err != nil {
		return nil, internalError("encoding the staged step", err)
	}
	now := h.now()
	rec := store.Stage{
		ID: newStageID(), TaskID: task.ID, TabHandle: tab.Handle, ChromeTabID: tab.ChromeTabID, Generation: tab.Generation,
		PageRevision: revision, Step: step, Effect: st.Effect, Fingerprint: st.Fingerprint, PreviewDigest: st.PreviewDigest,
		ReviewHandleHash: hexSHA256(st.ReviewHandle), State: protocol.StagePending, CreatedAt: now, ExpiresAt: now.Add(protocol.StageTTLMs * time.Millisecond),
	}
	rec, perr := h.createStage(ctx, epoch, rec)
	if perr != nil {
		return nil, perr
	}
	h.log.Printf("task %s: staged step %d (%s) on %s for review as %s (%s)", task.ID, st.Step, st.Effect, tab.Handle, rec.ID, rec.State)
	return &protocol.StageInfo{Stage: rec.ID, Step: st.Step, Effect: st.Effect, ExpiresInMs: protocol.StageTTLMs}, nil
}

// stageReportProblem names the field of the extension's stage report that
// does not check ("" when all do), the step aside.
func stageReportProblem(st protocol.ExtStage) string {
	switch {
	case !slices.Contains(protocol.Effects, st.Effect):
		return "effect"
	case !reviewHandleForm.MatchString(st.ReviewHandle):
		return "review_handle"
	case !hexDigestForm.MatchString(st.Fingerprint):
		return "fingerprint"
	case !hexDigestForm.MatchString(st.PreviewDigest):
		return "preview_digest"
	}
	return ""
}

// badStageReport refuses a stage report by field only: the handle is a
// secret of the popup's.
func badStageReport(field string) *protocol.Error {
	return protocol.NewError(protocol.CodeInternal, protocol.OutcomeNotStarted,
		"the extension's stage report has a bad "+field, protocol.RecoveryUpdate)
}

// createStage records a new stage; epoch is yoloEpoch from before the
// request that staged it was sent.
func (h *Host) createStage(ctx context.Context, epoch uint64, rec store.Stage) (store.Stage, *protocol.Error) {
	h.stageGate.mu.Lock()
	defer h.stageGate.mu.Unlock()
	if h.stageGate.ons != epoch && !survivesYolo(rec.Effect) {
		// The user turned YOLO mode on after the extension staged it: the
		// popup dropped its entry, so nobody can approve it.
		rec.State = protocol.StageDiscarded
	}
	if err := h.store.CreateStage(ctx, rec); err != nil {
		return rec, internalError("recording the stage", err)
	}
	return rec, nil
}

// stageRefusal is browser_commit's refusal of a stage in state (nil for
// approved, the one state a commit takes).
func stageRefusal(st store.Stage) *protocol.Error {
	code, ok := map[protocol.StageState]protocol.ErrorCode{
		protocol.StagePending:   protocol.CodeStageNotApproved,
		protocol.StageDenied:    protocol.CodeStageDenied,
		protocol.StageExpired:   protocol.CodeStageExpired,
		protocol.StageConsumed:  protocol.CodeStageConsumed,
		protocol.StageDiscarded: protocol.CodeStageDiscarded,
	}[st.State]
	if !ok {
		return nil
	}
	return protocol.Fail(code, fmt.Sprintf("stage %s is %s", st.ID, st.State))
}

// stageGate orders stage records against the user's YOLO switch. The act
// answer that reports a stage and the `yolo` request the extension sends
// after it (once its global barrier lets the switch through) are handled on
// different goroutines, so a stage recorded after the discard stayed
// pending with no popup entry: the agent heard stage_not_approved ("ask the
// user") for five minutes. Each record and each switch to on hold mu, and
// a stage whose act was sent before the latest switch to on is recorded
// discarded: either the discard finds it or it is born discarded.
//
// It counts switches rather than keeping the switch: a stage report proves
// YOLO mode was off when the extension staged, and the only switch that
// can have dropped its popup entry since is one to on heard after the act
// was sent. A kept switch would go wrong for the rest of the session when
// the host missed an off (one sent while it was not yet welcomed).
type stageGate struct {
	mu sync.Mutex
	// ons counts the switches to on this host heard.
	ons uint64
}

// yoloEpoch is read before an act is sent and handed to recordStaged.
func (h *Host) yoloEpoch() uint64 {
	h.stageGate.mu.Lock()
	defer h.stageGate.mu.Unlock()
	return h.stageGate.ons
}

// yoloOn discards every pending and approved stage for a switch to on
// (the user's, or the hello's), in one hold of the gate, and returns how
// many went; bookmark removals stay (survivesYolo).
func (h *Host) yoloOn(ctx context.Context, why string) int {
	h.stageGate.mu.Lock()
	defer h.stageGate.mu.Unlock()
	h.stageGate.ons++
	n, err := h.store.DiscardOpenStages(ctx, h.now(), yoloExempt...)
	return h.logDiscarded(n, err, why)
}

// yoloExempt are the effects outside YOLO mode's scope: YOLO mode skips
// review of page steps only, and spec 000 has bookmarks_remove always
// staged, YOLO mode or not. So neither turning it on (the user's switch,
// a hello that carries it) nor the epoch check of createStage discards
// such a stage, and the popup keeps its entry (survivesYolo in
// extension/src/background/review/reviews.ts, the twin of this list).
// Finishing the task still discards it (discardStages).
var yoloExempt = []protocol.Effect{protocol.EffectBookmarkRemove}

func survivesYolo(e protocol.Effect) bool { return slices.Contains(yoloExempt, e) }

// discardStages discards the task's open stages (it finished) and logs how
// many went. Its acts hold its order, so none records a stage meanwhile.
func (h *Host) discardStages(ctx context.Context, taskID, why string) int {
	n, err := h.store.DiscardTaskStages(ctx, taskID, h.now())
	return h.logDiscarded(n, err, why)
}

func (h *Host) logDiscarded(n int, err error, why string) int {
	if err != nil {
		h.log.Printf("discarding stages (%s): %v", why, err)
	} else if n > 0 {
		h.log.Printf("discarded %d stage(s): %s", n, why)
	}
	return n
}
