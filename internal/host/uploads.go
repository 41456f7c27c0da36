package host

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/internal/upload"
	"github.com/agenttab/agenttab/protocol"
)

// Uploads (issue 13; internal/upload holds the checks and the retention):
// before an act with upload_file steps goes to the extension, each step's
// path is staged into STATE/uploads/<random>/<name>, and the step the
// extension gets names the copy. The agent's path goes nowhere else: the
// audit summarises arguments as string lengths, the idempotency record
// keeps a digest, refusals never quote it, and a stage record keeps the
// step without it (scrubUploads).

// hostClock is the uploads' clock: the host's Now, and the timers of
// heldUploads.after.
type hostClock struct {
	now   func() time.Time
	after func(time.Duration, func())
}

func (c hostClock) Now() time.Time                      { return c.now() }
func (c hostClock) AfterFunc(d time.Duration, f func()) { c.after(d, f) }

// startUploads makes the stager and removes the copies an earlier host
// left (upload.Sweep: older than UploadStaleAtStartMs, the younger ones
// when they reach that age).
func (h *Host) startUploads() {
	if h.held.after == nil {
		h.held.after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	h.uploads = upload.New(upload.Config{
		Roots: h.policy.Uploads.DLPAllowedRoots, MaxBytes: h.policy.Uploads.MaxBytes,
		State: string(h.opts.Dir), Dir: h.opts.Dir.Uploads(), Clock: hostClock{h.now, h.held.after},
	})
	if n := h.uploads.Sweep(); n > 0 {
		h.log.Printf("removed %d stale upload copies", n)
	}
}

// stagedUploads are the copies of one batch, by step index.
type stagedUploads map[int]*upload.Copy

// stageUploads stages every upload_file step of steps and returns the
// steps to send (each such step naming its copy). A refusal fails the
// whole batch before anything runs, naming the step, with nothing staged.
func (h *Host) stageUploads(steps []protocol.Step) ([]protocol.Step, stagedUploads, *protocol.Error) {
	var copies stagedUploads
	var out []protocol.Step
	for i, s := range steps {
		if s.Kind != protocol.StepUploadFile {
			continue
		}
		if copies == nil {
			copies, out = stagedUploads{}, append([]protocol.Step(nil), steps...)
		}
		c, perr := h.uploads.Stage(s.Path)
		if perr != nil {
			for _, c := range copies {
				h.uploads.Unused(c) // no step ran
			}
			perr.Message = fmt.Sprintf("step %d (upload_file): %s", i, perr.Message)
			return nil, nil, perr
		}
		copies[i] = c
		out[i].Path = c.Path
	}
	if copies == nil {
		return steps, nil, nil
	}
	return out, copies, nil
}

// settleUploads marks each copy used or unused once its act or commit
// answered: unused (removed at once) only when its step surely never
// touched the page (not_started, or no receipt in a batch that stopped
// before it); a copy whose step was staged for review is held for its
// stage (holdUpload) so that browser_commit sets the same copy; any other
// is used (kept UploadKeepAfterUseMs). callErr is the extension call's
// failure: unless it is not_started, Chrome may have set every copy
// already (outcome unknown), so all count as used.
func (h *Host) settleUploads(ctx context.Context, taskID string, copies stagedUploads, receipts []protocol.StepReceipt, callErr *protocol.Error) {
	if len(copies) == 0 {
		return
	}
	if callErr != nil && callErr.Outcome != protocol.OutcomeNotStarted {
		for _, c := range copies {
			h.uploads.Used(c)
		}
		return
	}
	reached, staged := map[int]bool{}, map[int]*protocol.StageInfo{}
	for _, r := range receipts {
		switch {
		case r.Kind != protocol.StepUploadFile || r.Outcome == protocol.OutcomeNotStarted:
		case r.Outcome == protocol.OutcomeStaged:
			// Without a stage record (refused by recordStaged) it never ran.
			staged[r.Index] = r.Stage
		default:
			reached[r.Index] = true
		}
	}
	held := false
	for i, c := range copies {
		switch {
		case reached[i]:
			h.uploads.Used(c)
		case staged[i] != nil:
			h.holdUpload(taskID, staged[i].Stage, c)
			held = true
		default:
			h.uploads.Unused(c)
		}
	}
	if held {
		// A stage born discarded (YOLO turned on while the act ran) ends now.
		h.releaseUploads(ctx)
	}
}

// heldUploads are the copies of staged upload steps by stage id, in
// memory only: the stage record keeps no path (scrubUploads), and a host
// that restarted has no copy to commit (the commit is refused
// upload_denied and the agent stages the upload again). A copy is held
// until its stage ends: committed (the commit takes it), denied,
// discarded or expired (releaseUploads, the timer).
type heldUploads struct {
	// after is the uploads' timers (time.AfterFunc); tests replace it
	// through Options.inspect to run them themselves.
	after func(time.Duration, func())

	mu     sync.Mutex
	copies map[string]heldCopy
}

// heldCopy is a held copy and the task of its stage.
type heldCopy struct {
	taskID string
	copy   *upload.Copy
}

// holdUpload keeps c for stage until a commit takes it or the stage ends
// (at the latest when its five minutes are over).
func (h *Host) holdUpload(taskID, stage string, c *upload.Copy) {
	h.held.mu.Lock()
	if h.held.copies == nil {
		h.held.copies = map[string]heldCopy{}
	}
	h.held.copies[stage] = heldCopy{taskID, c}
	h.held.mu.Unlock()
	h.held.after(protocol.StageTTLMs*time.Millisecond, func() { h.dropUpload(stage) })
}

// dropUpload removes the copy held for stage, if any.
func (h *Host) dropUpload(stage string) {
	if c := h.takeUpload(stage); c != nil {
		h.uploads.Unused(c)
	}
}

// releaseUploads drops the copies of stages that can no longer be
// committed (denied, discarded, expired, gone): called where stages end
// (the user's Deny and YOLO switch, a finished task). A consumed stage's
// copy is its commit's to take; one the store cannot read now stays for
// its timer.
func (h *Host) releaseUploads(ctx context.Context) {
	h.held.mu.Lock()
	held := make(map[string]string, len(h.held.copies)) // stage → task
	for id, c := range h.held.copies {
		held[id] = c.taskID
	}
	h.held.mu.Unlock()
	for id, taskID := range held {
		st, err := h.store.StageOf(ctx, taskID, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			continue
		case st.State == protocol.StageConsumed:
			continue
		case (st.State == protocol.StagePending || st.State == protocol.StageApproved) && !st.Expired(h.now()):
			continue
		}
		h.dropUpload(id)
	}
}

// heldUpload is the copy held for stage, or nil.
func (h *Host) heldUpload(stage string) *upload.Copy {
	h.held.mu.Lock()
	defer h.held.mu.Unlock()
	return h.held.copies[stage].copy
}

// takeUpload removes and answers the copy held for stage, or nil.
func (h *Host) takeUpload(stage string) *upload.Copy {
	h.held.mu.Lock()
	defer h.held.mu.Unlock()
	c := h.held.copies[stage]
	delete(h.held.copies, stage)
	return c.copy
}

// scrubUploads is steps without their upload paths, for records (a
// stage keeps its step in state.db).
func scrubUploads(steps []protocol.Step) []protocol.Step {
	out := steps
	for i, s := range steps {
		if s.Kind == protocol.StepUploadFile && s.Path != "" {
			if &out[0] == &steps[0] {
				out = append([]protocol.Step(nil), steps...)
			}
			out[i].Path = ""
		}
	}
	return out
}
