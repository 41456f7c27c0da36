package host

import (
	"context"
	"encoding/json"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

const finishTimeout = 20 * time.Second

// finish ends the calling task: ownership is released and the task's groups
// removed; the tabs the task created are closed only when asked (adopted
// tabs never). The connection's next browser request starts a new task.
func (h *Host) finish(ctx context.Context, c *call) (any, error) {
	var p protocol.FinishParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	task, perr := h.task(ctx, c.s)
	if perr != nil {
		return nil, perr
	}
	c.taskID = task.ID
	defer h.lockTask(task.ID)()

	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	rec, cached, perr := h.beginIdempotent(ctx, c, task.ID, protocol.MethodFinish, key, p)
	if perr != nil {
		return nil, perr
	}
	if cached != nil {
		var res protocol.FinishResult
		if err := json.Unmarshal(cached, &res); err != nil {
			return nil, internalError("decoding a cached result", err)
		}
		res.Replay = true
		c.outcome = res.Outcome
		return res, nil
	}

	owned, err := h.store.OwnedTabs(ctx, task.ID)
	if err != nil {
		return nil, internalError("listing tabs", err)
	}
	params := protocol.ExtFinishParams{TaskID: task.ID, Close: []int{}}
	if p.CloseTabs {
		for _, t := range owned {
			if t.Source == "created" {
				params.Close = append(params.Close, t.ChromeTabID)
			}
		}
	}
	var ext protocol.ExtFinishResult
	if perr := h.extCall(ctx, finishTimeout, protocol.NativeFinish, params, &ext, protocol.OutcomeUnknown); perr != nil {
		rec.complete(ctx, nil, perr)
		return nil, perr
	}
	released, err := h.store.ReleaseTaskTabs(ctx, task.ID)
	if err == nil {
		err = h.store.FinishTask(ctx, task.ID, h.now())
	}
	if err != nil {
		perr := protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown, "Chrome released the tabs but the host could not record it: "+err.Error(),
			"Call browser_finish again.")
		rec.complete(ctx, nil, perr)
		return nil, perr
	}
	c.s.mu.Lock()
	if c.s.taskID == task.ID {
		c.s.taskID = ""
	}
	c.s.mu.Unlock()
	res := protocol.FinishResult{Task: protocol.TaskRef{ID: task.ID, Label: task.Label}, Released: released, Closed: len(ext.Closed), Outcome: protocol.OutcomeConfirmed}
	rec.complete(ctx, res, nil)
	c.outcome = res.Outcome
	return res, nil
}
