package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// answerExtension serves the extension's requests to the host
// (protocol.ExtRequests): local_file (may this file: request of an owned
// tab's page load?) and the popup's, which the worker passes on: a stage's
// review, the YOLO switch, the task list and End task.
func (h *Host) answerExtension(method string, params json.RawMessage) (any, *protocol.Error) {
	ctx, cancel := context.WithTimeout(context.Background(), extRequestTimeout)
	defer cancel()
	switch method {
	case protocol.NativeLocalFile:
		var p protocol.LocalFileParams
		if perr := decodeExtRequest(method, params, &p); perr != nil {
			return nil, perr
		}
		if _, perr := h.local.admit(p.URL); perr != nil {
			// Logged without the path, like the message it carries.
			h.log.Printf("local file: refused a file: request of a page: %s", perr.Message)
			return nil, perr
		}
		return protocol.LocalFileResult{Admitted: true}, nil
	case protocol.NativeStageReview:
		var p protocol.StageReviewParams
		if perr := decodeExtRequest(method, params, &p); perr != nil {
			return nil, perr
		}
		return h.reviewStage(ctx, p)
	case protocol.NativeYolo:
		var p protocol.YoloParams
		if perr := decodeExtRequest(method, params, &p); perr != nil {
			return nil, perr
		}
		return h.yolo(ctx, p.On), nil
	case protocol.NativeTaskOverview:
		return h.taskOverview(ctx)
	case protocol.NativeEndTask:
		var p protocol.EndTaskParams
		if perr := decodeExtRequest(method, params, &p); perr != nil {
			return nil, perr
		}
		return h.endTask(ctx, p)
	}
	return nil, protocol.Fail(protocol.CodeUnknownMethod, "the host has no extension request "+method)
}

// extRequestTimeout bounds one answer; End task waits for the extension's
// finish inside it.
const extRequestTimeout = finishTimeout + 10*time.Second

// endTaskLockWait bounds End task's wait for its task's order: well within
// the popup's END_TASK_MS (15 s), leaving it time for the finish itself.
var endTaskLockWait = 10 * time.Second

func decodeExtRequest(method string, params json.RawMessage, out any) *protocol.Error {
	if err := json.Unmarshal(params, out); err != nil {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			method+" params do not decode: "+err.Error(), protocol.RecoveryUpdate)
	}
	return nil
}

// reviewStage records the human's Approve or Deny, durably, and dispatches
// nothing: only the task's own browser_commit runs the step. The audit
// keeps the decision and the effect's name, never the handle or preview.
func (h *Host) reviewStage(ctx context.Context, p protocol.StageReviewParams) (protocol.StageReviewResult, *protocol.Error) {
	if !reviewHandleForm.MatchString(p.ReviewHandle) {
		return protocol.StageReviewResult{}, protocol.Fail(protocol.CodeInvalidParams, "review_handle is not a review handle")
	}
	st, err := h.store.ReviewStage(ctx, hexSHA256(p.ReviewHandle), p.Approve, h.now())
	if errors.Is(err, store.ErrNotFound) {
		return protocol.StageReviewResult{}, protocol.Fail(protocol.CodeStageNotFound, "no stage has this review handle")
	}
	if err != nil {
		return protocol.StageReviewResult{}, internalError("recording the review", err)
	}
	h.releaseUploads(ctx) // a denied or expired stage's upload copy goes now
	h.auditEventWith("event.approval", st.TaskID, map[string]any{"approve": p.Approve, "effect": st.Effect, "state": st.State})
	h.log.Printf("task %s: stage %s %s by the user", st.TaskID, st.ID, st.State)
	return protocol.StageReviewResult{State: st.State}, nil
}

// yolo applies the user's YOLO switch: on discards every pending and
// approved stage (spec 000).
func (h *Host) yolo(ctx context.Context, on bool) protocol.YoloResult {
	n := 0
	if on {
		n = h.yoloOn(ctx, "the user turned YOLO mode on")
		h.releaseUploads(ctx) // the discarded stages' upload copies go now
	}
	h.auditEventWith("event.yolo", "", map[string]any{"on": on, "discarded": n})
	return protocol.YoloResult{Discarded: n}
}

// helloYolo takes the switch the hello carries. On is the default, so it
// is no event of the user's; only stages it finds open (the user turned it
// on while no host listened) are audited, by count.
func (h *Host) helloYolo(ctx context.Context, on bool) {
	if !on {
		return
	}
	if n := h.yoloOn(ctx, "the extension's hello has YOLO mode on"); n > 0 {
		h.auditEventWith("event.stages_discarded", "", map[string]any{"cause": "hello_yolo_on", "discarded": n})
	}
}

// taskOverview lists the unfinished tasks for the popup: whether an agent
// holds each now, and how long since its last request.
func (h *Host) taskOverview(ctx context.Context) (protocol.TaskOverviewResult, *protocol.Error) {
	tasks, err := h.store.ActiveTasks(ctx)
	if err != nil {
		return protocol.TaskOverviewResult{}, internalError("listing tasks", err)
	}
	now := h.now()
	res := protocol.TaskOverviewResult{Tasks: []protocol.TaskOverview{}}
	for _, t := range tasks {
		res.Tasks = append(res.Tasks, protocol.TaskOverview{TaskID: t.ID, Connected: t.ConnectionID != "", IdleMs: max(0, now.Sub(h.lastActive(t)).Milliseconds())})
	}
	return res, nil
}

// endTask finishes a task as browser_finish would, on the user's word from
// the popup and from outside the task's connection: its stages are
// discarded, its tabs released (closed when asked, adopted ones never),
// its groups removed. The connection that held it, if any, hears
// task_ended on its next browser call, and then starts a new task.
func (h *Host) endTask(ctx context.Context, p protocol.EndTaskParams) (protocol.EndTaskResult, *protocol.Error) {
	// Bounded: behind an agent's long call (a wait of up to 30 s) the
	// popup would stop waiting (END_TASK_MS, extension
	// background/popup/tasks.ts) and the task end later, unseen.
	lockCtx, cancel := context.WithTimeout(ctx, endTaskLockWait)
	unlock, err := h.taskLocks.lockWithin(lockCtx, p.TaskID)
	cancel()
	if err != nil {
		return protocol.EndTaskResult{}, protocol.Fail(protocol.CodeTaskBusy, "task "+quotedShort(p.TaskID)+" is in the middle of a call; it was not ended")
	}
	defer unlock()
	task, err := h.store.Task(ctx, p.TaskID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && task.State != store.TaskActive) {
		return protocol.EndTaskResult{}, protocol.Fail(protocol.CodeInvalidParams, "no unfinished task "+quotedShort(p.TaskID))
	}
	if err != nil {
		return protocol.EndTaskResult{}, internalError("loading the task", err)
	}
	s := h.sessionOf(task.ID)
	if s != nil {
		s.setEnded(true)
	}
	res, perr := h.finishTask(ctx, s, task, p.CloseTabs)
	if perr != nil {
		if s != nil {
			s.setEnded(false)
		}
		return protocol.EndTaskResult{}, perr
	}
	h.auditEventWith("event.end_task", task.ID, map[string]any{"close_tabs": p.CloseTabs, "released": res.Released, "closed": res.Closed})
	h.log.Printf("task %s ended by the user: %d tab(s) released, %d closed", task.ID, res.Released, res.Closed)
	return protocol.EndTaskResult{Released: res.Released, Closed: res.Closed}, nil
}

// sessionOf is the session holding the task now, nil when it is detached.
func (h *Host) sessionOf(taskID string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sessions {
		if s.currentTask() == taskID {
			return s
		}
	}
	return nil
}

// auditEventWith records a human's control (or what the host did on one
// it learned late) as an event line whose summary holds only enum names,
// booleans and counts (no handle, preview, message or page value ever goes
// in).
func (h *Host) auditEventWith(method, taskID string, summary map[string]any) {
	now := h.now()
	raw, _ := json.Marshal(summary)
	h.writeAudit(audit.Record{
		TS: now, TSEnd: now, Kind: audit.KindEvent, Method: method, TaskID: taskID, Outcome: protocol.OutcomeConfirmed,
		ArgsSummary: summary, ArgsDigest: audit.Digest(raw),
	})
}
