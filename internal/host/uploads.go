package host

import (
	"fmt"
	"sync"
	"time"

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

// hostClock is the uploads' clock: the host's Now, real timers.
type hostClock struct{ now func() time.Time }

func (c hostClock) Now() time.Time                      { return c.now() }
func (c hostClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// startUploads makes the stager and removes the copies an earlier host
// left (upload.Sweep: older than UploadStaleAtStartMs).
func (h *Host) startUploads() {
	h.uploads = upload.New(upload.Config{
		Roots: h.policy.Uploads.DLPAllowedRoots, MaxBytes: h.policy.Uploads.MaxBytes,
		State: string(h.opts.Dir), Dir: h.opts.Dir.Uploads(), Clock: hostClock{h.now},
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
			h.settleUploads(copies, nil)
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

// settleUploads marks each copy used (its step reached the page:
// dispatched or confirmed) or unused (removed at once), except a copy
// whose step was staged for review, which is held for its stage
// (holdStagedUploads) so that browser_commit sets the same copy.
func (h *Host) settleUploads(copies stagedUploads, receipts []protocol.StepReceipt) {
	reached, staged := map[int]bool{}, map[int]*protocol.StageInfo{}
	for _, r := range receipts {
		switch {
		case r.Kind != protocol.StepUploadFile:
		case r.Outcome == protocol.OutcomeDispatched || r.Outcome == protocol.OutcomeConfirmed:
			reached[r.Index] = true
		case r.Outcome == protocol.OutcomeStaged && r.Stage != nil:
			staged[r.Index] = r.Stage
		}
	}
	for i, c := range copies {
		switch {
		case reached[i]:
			h.uploads.Used(c)
		case staged[i] != nil:
			h.holdUpload(staged[i].Stage, c)
		default:
			h.uploads.Unused(c)
		}
	}
}

// heldUploads are the copies of staged upload steps by stage id, in
// memory only: the stage record keeps no path (scrubUploads), and a host
// that restarted has no copy to commit (the commit is refused
// upload_denied and the agent stages the upload again).
type heldUploads struct {
	mu     sync.Mutex
	copies map[string]*upload.Copy
}

// holdUpload keeps c for stage until a commit takes it or the stage's
// five minutes are over.
func (h *Host) holdUpload(stage string, c *upload.Copy) {
	h.held.mu.Lock()
	if h.held.copies == nil {
		h.held.copies = map[string]*upload.Copy{}
	}
	h.held.copies[stage] = c
	h.held.mu.Unlock()
	time.AfterFunc(protocol.StageTTLMs*time.Millisecond, func() {
		if c := h.takeUpload(stage); c != nil {
			h.uploads.Unused(c)
		}
	})
}

// heldUpload is the copy held for stage, or nil.
func (h *Host) heldUpload(stage string) *upload.Copy {
	h.held.mu.Lock()
	defer h.held.mu.Unlock()
	return h.held.copies[stage]
}

// takeUpload removes and answers the copy held for stage, or nil.
func (h *Host) takeUpload(stage string) *upload.Copy {
	h.held.mu.Lock()
	defer h.held.mu.Unlock()
	c := h.held.copies[stage]
	delete(h.held.copies, stage)
	return c
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
