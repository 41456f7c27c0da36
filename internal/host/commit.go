package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// browser_commit: run an approved stage's step once (protocol/commit.go;
// spec 000 Commit). The checks go in the design's order: the stage is this
// task's (else stage_not_found), its state and time, the tab still owned
// under the same grant, the tab's revision floor still the stage's; then
// the stage is marked consumed, durably, before the step is sent, so that
// no crash or retry ever sends it twice: a crash after that leaves the
// key's started record (unknown, never replayed) and a consumed stage.

// commit serves browser_commit.
func (h *Host) commit(ctx context.Context, c *call) (any, error) {
	var p protocol.CommitParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if !stageIDForm.MatchString(p.Stage) {
		return nil, protocol.Fail(protocol.CodeInvalidParams, "stage must be a stage id (stg_…) from a staged step's receipt, not "+quotedShort(p.Stage))
	}
	if perr := checkActionable(&p.ActionableTimeoutMs); perr != nil {
		return nil, perr
	}
	key, perr := coreIdempotencyKey(p.IdempotencyKey)
	if perr != nil {
		return nil, perr
	}
	p.IdempotencyKey = ""
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	// Refused before the key is recorded, as act's revision check: a
	// commit asked before the user approved is asked again with the same
	// key once they have. A key already used is left to its record.
	used, err := h.store.IdempotencyKeyUsed(ctx, task.ID, key)
	if err != nil {
		return nil, internalError("reading the idempotency key", err)
	}
	if !used {
		if _, _, perr := h.checkStage(ctx, task, p.Stage); perr != nil {
			return nil, perr
		}
	}
	return mutate(h, ctx, c, task.ID, protocol.MethodCommit, key, p,
		func(r *protocol.CommitResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome },
		func() (protocol.CommitResult, *protocol.Error) { return h.commitStage(ctx, task, p) })
}

// checkStage finds the task's stage and checks it can be committed now:
// approved, unexpired, on a tab the task still owns under the same grant,
// whose revision floor is still the stage's.
func (h *Host) checkStage(ctx context.Context, task store.Task, id string) (store.Stage, store.OwnedTab, *protocol.Error) {
	st, err := h.store.StageOf(ctx, task.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Stage{}, store.OwnedTab{}, protocol.Fail(protocol.CodeStageNotFound, "this task has no stage "+id)
	}
	if err != nil {
		return store.Stage{}, store.OwnedTab{}, internalError("reading the stage", err)
	}
	if (st.State == protocol.StagePending || st.State == protocol.StageApproved) && st.Expired(h.now()) {
		st.State = protocol.StageExpired // the store marks it when it consumes
	}
	if perr := stageRefusal(st); perr != nil {
		return store.Stage{}, store.OwnedTab{}, perr
	}
	if st.Effect == protocol.EffectBookmarkRemove {
		return st, store.OwnedTab{}, nil // a profile stage has no tab (profile.go)
	}
	tab, perr := h.ownedTab(ctx, task.ID, st.TabHandle)
	if perr != nil {
		return store.Stage{}, store.OwnedTab{}, perr
	}
	if tab.ChromeTabID != st.ChromeTabID || tab.Generation != st.Generation {
		return store.Stage{}, store.OwnedTab{}, notOwned(st.TabHandle)
	}
	floor, err := h.store.RevisionFloor(ctx, tab.ChromeTabID)
	if err != nil {
		return store.Stage{}, store.OwnedTab{}, internalError("reading the page revision", err)
	}
	if floor != st.PageRevision {
		return store.Stage{}, store.OwnedTab{}, protocol.Fail(protocol.CodeStageStale,
			fmt.Sprintf("tab %s has moved from page revision %d, where the stage was made, to %d", tab.Handle, st.PageRevision, floor))
	}
	return st, tab, nil
}

// commitStage consumes the stage and sends its step.
func (h *Host) commitStage(ctx context.Context, task store.Task, p protocol.CommitParams) (protocol.CommitResult, *protocol.Error) {
	st, tab, perr := h.checkStage(ctx, task, p.Stage)
	if perr != nil {
		return protocol.CommitResult{}, perr
	}
	if st.Effect == protocol.EffectBookmarkRemove {
		return h.commitBookmarkRemove(ctx, task, st)
	}
	var step protocol.Step
	if err := json.Unmarshal(st.Step, &step); err != nil {
		return protocol.CommitResult{}, internalError("decoding the staged step", err)
	}
	// An upload commits the copy made when it was staged (uploads.go);
	// without it (the host restarted) nothing is consumed.
	if step.Kind == protocol.StepUploadFile && h.heldUpload(st.ID) == nil {
		return protocol.CommitResult{}, protocol.NewError(protocol.CodeUploadDenied, protocol.OutcomeNotStarted,
			"the copy of the file made when the upload was staged is gone (AgentTab restarted since)",
			"Run the upload_file step again with browser_act to stage it anew, and ask the user to approve it.")
	}
	st, perr = h.consumeStage(ctx, task, st)
	if perr != nil {
		return protocol.CommitResult{}, perr
	}
	// The commit's one receipt has index 0.
	held := stagedUploads{}
	if step.Kind == protocol.StepUploadFile {
		c := h.takeUpload(st.ID)
		if c == nil {
			// Its five minutes ended at this moment, as the stage's did.
			return protocol.CommitResult{}, protocol.Fail(protocol.CodeStageExpired, "the stage expired as it was committed")
		}
		held[0] = c
		step.Path = c.Path
	}
	params := protocol.ExtCommitParams{
		TaskID: task.ID, TabID: tab.ChromeTabID, ExpectedPageRevision: st.PageRevision, Step: step,
		ReviewHandleDigest: st.ReviewHandleHash, Effect: st.Effect, Fingerprint: st.Fingerprint, ActionableTimeoutMs: *p.ActionableTimeoutMs,
	}
	timeout := actBaseTimeout + actStepTimeout + time.Duration(*p.ActionableTimeoutMs)*time.Millisecond
	var ext protocol.ExtActResult
	perr = h.extCall(ctx, timeout, protocol.NativeCommit, params, &ext, protocol.OutcomeUnknown)
	h.settleUploads(ctx, task.ID, held, ext.Steps, perr)
	if perr != nil {
		// The extension's own refusals (stage_stale, stage_discarded,
		// stage_target_changed, browser_restricted_origin, …) are
		// not_started and pass through; the stage stays consumed.
		return protocol.CommitResult{}, perr
	}
	ext.Staged = nil // a commit never stages again
	if len(ext.Steps) != 1 {
		return protocol.CommitResult{}, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown,
			fmt.Sprintf("the extension answered a commit with %d step receipts, not one", len(ext.Steps)), protocol.RecoveryUpdate)
	}
	res := h.actReceipt(ctx, task, tab, ext)
	h.log.Printf("task %s: committed %s (%s) on %s: %s", task.ID, st.ID, st.Effect, tab.Handle, res.Outcome)
	return protocol.CommitResult{
		Stage: st.ID, Effect: st.Effect, Tab: tab.Handle, Step: res.Steps[0], PageRevision: res.PageRevision, URL: res.URL, Title: res.Title,
		Dialog: res.Dialog, OriginStops: res.OriginStops, Challenge: res.Challenge, Outcome: res.Outcome, Error: res.Error,
	}, nil
}

// consumeStage marks the stage consumed, durably, before its work is sent.
func (h *Host) consumeStage(ctx context.Context, task store.Task, st store.Stage) (store.Stage, *protocol.Error) {
	st, consumed, err := h.store.ConsumeStage(ctx, task.ID, st.ID, h.now())
	if err != nil {
		return st, internalError("consuming the stage", err)
	}
	if !consumed {
		// Expired or discarded between the check and now.
		if perr := stageRefusal(st); perr != nil {
			return st, perr
		}
		return st, internalError("consuming the stage", fmt.Errorf("state %s", st.State))
	}
	return st, nil
}
