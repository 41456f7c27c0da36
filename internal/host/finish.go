package host

import (
	"context"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

const finishTimeout = 20 * time.Second

// finish ends the calling task: ownership is released and the task's groups
// removed; the tabs the task opened (and their popups) are closed only when
// asked (adopted tabs never). The connection's next browser request starts a new task.
func (h *Host) finish(ctx context.Context, c *call) (any, error) {
	var p protocol.FinishParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodFinish, key, p,
		func(r *protocol.FinishResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome },
		func(task store.Task) (protocol.FinishResult, *protocol.Error) {
			return h.finishTask(ctx, c.s, task, p.CloseTabs)
		})
}

// finishTask finishes task for s, the session that holds it (nil for a
// detached task).
func (h *Host) finishTask(ctx context.Context, s *session, task store.Task, closeTabs bool) (protocol.FinishResult, *protocol.Error) {
	owned, err := h.store.OwnedTabs(ctx, task.ID)
	if err != nil {
		return protocol.FinishResult{}, internalError("listing tabs", err)
	}
	params := protocol.ExtFinishParams{TaskID: task.ID, Close: []int{}}
	if closeTabs {
		for _, t := range owned {
			// Popups the task's pages opened count as opened by the task;
			// an adopted tab is the user's and is never closed.
			if t.Source != store.SourceAdopted {
				params.Close = append(params.Close, t.ChromeTabID)
			}
		}
	}
	var ext protocol.ExtFinishResult
	if perr := h.extCall(ctx, finishTimeout, protocol.NativeFinish, params, &ext, protocol.OutcomeUnknown); perr != nil {
		return protocol.FinishResult{}, perr
	}
	released, err := h.store.ReleaseTaskTabs(ctx, task.ID)
	if err == nil {
		err = h.store.FinishTask(ctx, task.ID, h.now())
	}
	if err != nil {
		return protocol.FinishResult{}, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown,
			"Chrome released the tabs but the host could not record it: "+err.Error(), "Call browser_finish again.")
	}
	h.discardStages(ctx, task.ID, "task "+task.ID+" finished")
	h.releaseUploads(ctx) // the discarded stages' upload copies (uploads.go)
	h.forgetActivity(task.ID)
	h.texts.dropTask(task.ID)
	h.dropBlobs(task.ID)
	if s != nil {
		s.mu.Lock()
		if s.taskID == task.ID {
			s.taskID = ""
		}
		s.mu.Unlock()
	}
	return protocol.FinishResult{Task: protocol.TaskRef{ID: task.ID, Label: task.Label}, Released: released, Closed: len(ext.Closed), Outcome: protocol.OutcomeConfirmed}, nil
}
