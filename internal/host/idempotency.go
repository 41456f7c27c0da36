package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// idem is one mutation's idempotency record, scoped to its task.
type idem struct {
	h      *Host
	taskID string
	key    string
}

// beginIdempotent durably records that a mutation is starting, before
// anything is sent to Chrome (spec 000: "a durable started record after a
// crash returns unknown and is never replayed"). It returns a non-nil
// cached result when the key already completed with the same arguments.
// key is resolved (coreIdempotencyKey); argsWithoutKey is the canonical
// argument set the key is bound to.
func (h *Host) beginIdempotent(ctx context.Context, c *call, taskID, method, key string, argsWithoutKey any) (*idem, json.RawMessage, *protocol.Error) {
	raw, err := json.Marshal(argsWithoutKey)
	if err != nil {
		return nil, nil, internalError("encoding arguments", err)
	}
	digest := audit.Digest(raw)
	existing, err := h.store.BeginIdempotent(ctx, taskID, key, method, digest, h.now())
	if err != nil {
		return nil, nil, internalError("recording the idempotency key", err)
	}
	if existing == nil {
		return &idem{h: h, taskID: taskID, key: key}, nil, nil
	}
	if existing.Method != method || existing.ArgsDigest != digest {
		return nil, nil, protocol.Fail(protocol.CodeIdempotencyConflict,
			fmt.Sprintf("idempotency_key was already used by this task for a different %s call", existing.Method))
	}
	if existing.State != "completed" {
		return nil, nil, protocol.Fail(protocol.CodeIdempotencyInProgress,
			"a call with this idempotency_key started and never reported completion; it is never replayed")
	}
	if existing.Failed {
		var perr protocol.Error
		if json.Unmarshal(existing.Result, &perr) == nil && perr.Code != "" {
			c.replay = true
			return nil, nil, &perr
		}
	}
	c.replay = true
	return nil, existing.Result, nil
}

// mutate runs one task mutation under its idempotency key: a key that
// already completed returns its recorded answer (replayRecord) marked as
// a replay, without running anything; otherwise run's answer (success or
// failure) is recorded before it is returned. fields exposes the result's
// replay flag and outcome.
func mutate[R any](h *Host, ctx context.Context, c *call, taskID, method, key string, args any, fields func(*R) (*bool, protocol.Outcome), run func() (R, *protocol.Error)) (any, error) {
	key, perr := coreIdempotencyKey(key)
	if perr != nil {
		return nil, perr
	}
	rec, cached, perr := h.beginIdempotent(ctx, c, taskID, method, key, args)
	if perr != nil {
		return nil, perr
	}
	var res R
	if cached != nil {
		if err := json.Unmarshal(cached, &res); err != nil {
			return nil, internalError("decoding a cached result", err)
		}
		replay, outcome := fields(&res)
		*replay, c.outcome = true, outcome
		return res, nil
	}
	res, perr = run()
	rec.complete(ctx, res, perr)
	if perr != nil {
		return nil, perr
	}
	_, c.outcome = fields(&res)
	return res, nil
}

// taskMutation is mutate for a request on the connection's task as a
// whole (not one of its tabs): it takes the task's order for the call.
// key is the request's idempotency key, already cleared from args so that
// the digest compares the arguments alone. The key is checked before the
// task is bound, so a refused key leaves nothing behind, not even a task.
func taskMutation[R any](h *Host, ctx context.Context, c *call, method, key string, args any, fields func(*R) (*bool, protocol.Outcome), run func(store.Task) (R, *protocol.Error)) (any, error) {
	key, perr := coreIdempotencyKey(key)
	if perr != nil {
		return nil, perr
	}
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	return mutate(h, ctx, c, task.ID, method, key, args, fields, func() (R, *protocol.Error) { return run(task) })
}

// taskRead runs the read half of a tool whose other actions are task
// mutations (credentials prepare, handoff status, profile reads): in the
// task's line like taskMutation, with no key and nothing recorded, the
// call's outcome being the result's.
func taskRead[R any](h *Host, ctx context.Context, c *call, fields func(*R) (*bool, protocol.Outcome), run func(store.Task) (R, *protocol.Error)) (any, error) {
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	res, perr := run(task)
	if perr != nil {
		return nil, perr
	}
	_, c.outcome = fields(&res)
	return res, nil
}

// complete stores the final answer for the key, as replayRecord keeps it.
// A failure is stored too, so that a retry with the same key gets the same
// answer instead of a second attempt.
func (i *idem) complete(ctx context.Context, result any, perr *protocol.Error) {
	if i == nil {
		return
	}
	var answer any = result
	if perr != nil {
		answer = perr
	}
	raw, err := replayRecord(answer)
	if err == nil {
		err = i.h.store.CompleteIdempotent(ctx, i.taskID, i.key, raw, perr != nil, i.h.now())
	}
	if err != nil {
		i.h.log.Printf("idempotency %s/%s: completing: %v", i.taskID, i.key, err)
	}
}
