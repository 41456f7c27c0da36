package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
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
	// reviewHandleForm: the extension's handle is 32 random bytes in hex.
	reviewHandleForm = regexp.MustCompile(`^[0-9a-f]{32,128}$`)
	// hexDigestForm: the fingerprint and the preview digest are hex SHA-256.
	hexDigestForm = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// stageIDForm is what newStageID makes.
	stageIDForm = regexp.MustCompile(`^stg_[0-9a-f]{32}$`)
)

func newStageID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand crashes instead)
	return "stg_" + hex.EncodeToString(b)
}

// recordStaged records the stage an act answer reports and puts its id on
// the staged step's receipt. A report that does not check, or that the
// store cannot record, turns that receipt into a failure (nothing ran: the
// step was staged, not executed), as does a staged receipt without one.
func (h *Host) recordStaged(ctx context.Context, task store.Task, tab store.OwnedTab, actions []protocol.Step, ext *protocol.ExtActResult) {
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
			r.Stage, perr = h.recordStage(ctx, task, tab, actions, ext.Revision, *staged, r.Kind)
		}
		if perr != nil {
			r.Outcome, r.Error = protocol.OutcomeNotStarted, perr
		}
	}
}

// recordStage checks the extension's report and records the stage.
func (h *Host) recordStage(ctx context.Context, task store.Task, tab store.OwnedTab, actions []protocol.Step, revision int64, st protocol.ExtStage, kind protocol.StepKind) (*protocol.StageInfo, *protocol.Error) {
	var bad string
	switch {
	case st.Step < 0 || st.Step >= len(actions) || actions[st.Step].Kind != kind:
		bad = "step"
	case !slices.Contains(protocol.Effects, st.Effect):
		bad = "effect"
	case !reviewHandleForm.MatchString(st.ReviewHandle):
		bad = "review_handle"
	case !hexDigestForm.MatchString(st.Fingerprint):
		bad = "fingerprint"
	case !hexDigestForm.MatchString(st.PreviewDigest):
		bad = "preview_digest"
	}
	if bad != "" {
		// By field only: the handle is a secret of the popup's.
		return nil, protocol.NewError(protocol.CodeInternal, protocol.OutcomeNotStarted,
			"the extension's stage report has a bad "+bad, protocol.RecoveryUpdate)
	}
	step, err := json.Marshal(actions[st.Step])
	if err != nil {
		return nil, internalError("encoding the staged step", err)
	}
	now := h.now()
	rec := store.Stage{
		ID: newStageID(), TaskID: task.ID, TabHandle: tab.Handle, ChromeTabID: tab.ChromeTabID, Generation: tab.Generation,
		PageRevision: revision, Step: step, Effect: st.Effect, Fingerprint: st.Fingerprint, PreviewDigest: st.PreviewDigest,
		ReviewHandleHash: hexSHA256(st.ReviewHandle), CreatedAt: now, ExpiresAt: now.Add(protocol.StageTTLMs * time.Millisecond),
	}
	if err := h.store.CreateStage(ctx, rec); err != nil {
		return nil, internalError("recording the stage", err)
	}
	h.log.Printf("task %s: staged step %d (%s) on %s for review as %s", task.ID, st.Step, st.Effect, tab.Handle, rec.ID)
	return &protocol.StageInfo{Stage: rec.ID, Step: st.Step, Effect: st.Effect, ExpiresInMs: protocol.StageTTLMs}, nil
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

// discardStages discards open stages (YOLO mode on, a finished task; taskID
// "" for all) and logs how many went.
func (h *Host) discardStages(ctx context.Context, taskID, why string) int {
	var n int
	var err error
	if taskID == "" {
		n, err = h.store.DiscardOpenStages(ctx, h.now())
	} else {
		n, err = h.store.DiscardTaskStages(ctx, taskID, h.now())
	}
	if err != nil {
		h.log.Printf("discarding stages (%s): %v", why, err)
	} else if n > 0 {
		h.log.Printf("discarded %d stage(s): %s", n, why)
	}
	return n
}
