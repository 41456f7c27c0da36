package host

import (
	"context"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// Bounds of one batch in the extension: every step may follow a navigation
// for up to 10 s (issue 3), wait up to actionable_timeout_ms for its
// target (issue 11), and a wait step waits up to its own timeout.
const (
	actBaseTimeout = 15 * time.Second
	actStepTimeout = 12 * time.Second
)

// act runs a batch of steps on an owned tab. The receipt says what each
// step did; a batch that stops early is still a result (with the failed
// step's error), because the steps before it did run.
func (h *Host) act(ctx context.Context, c *call) (any, error) {
	var p protocol.ActParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkActParams(&p); perr != nil {
		return nil, perr
	}
	if perr := h.checkActTargets(p.Actions); perr != nil {
		return nil, perr
	}
	task, tab, unlock, perr := h.tabCall(ctx, c, p.Tab)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	if perr := h.checkRevision(ctx, task.ID, key, tab, p.ExpectedPageRevision); perr != nil {
		return nil, perr
	}
	return mutate(h, ctx, c, task.ID, protocol.MethodAct, key, p,
		func(r *protocol.ActResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome },
		func() (protocol.ActResult, *protocol.Error) { return h.actOn(ctx, task, tab, p) })
}

func (h *Host) actOn(ctx context.Context, task store.Task, tab store.OwnedTab, p protocol.ActParams) (protocol.ActResult, *protocol.Error) {
	perStep := actStepTimeout + time.Duration(*p.ActionableTimeoutMs)*time.Millisecond // set by checkActParams
	timeout := actBaseTimeout + time.Duration(len(p.Actions))*perStep
	for _, s := range p.Actions {
		if s.Wait != nil {
			timeout += time.Duration(*s.Wait.TimeoutMs) * time.Millisecond // set by checkWaitCondition
		}
	}
	var ext protocol.ExtActResult
	// Upload steps name their staged copies from here on (uploads.go).
	actions, uploads, perr := h.stageUploads(p.Actions)
	if perr != nil {
		return protocol.ActResult{}, perr
	}
	params := protocol.ExtActParams{TaskID: task.ID, TabID: tab.ChromeTabID, ExpectedPageRevision: p.ExpectedPageRevision, Actions: actions, ActionableTimeoutMs: *p.ActionableTimeoutMs}
	epoch := h.yoloEpoch()
	perr = h.extCall(ctx, timeout, protocol.NativeAct, params, &ext, protocol.OutcomeUnknown)
	if perr != nil {
		h.settleUploads(ctx, task.ID, uploads, nil, perr)
		return protocol.ActResult{}, perr
	}
	h.recordStaged(ctx, epoch, task, tab, scrubUploads(p.Actions), &ext)
	h.settleUploads(ctx, task.ID, uploads, ext.Steps, nil)
	res := h.actReceipt(ctx, task, tab, ext)
	// A closed tab has nothing to read after the batch.
	if !ext.Closed && p.SnapshotAfter && res.Error == nil {
		snap, perr := h.snapshotTab(ctx, task, tab, protocol.SnapshotParams{Tab: tab.Handle, Mode: protocol.SnapshotInteractive, MaxChars: new(protocol.DefaultMaxChars), Screenshot: protocol.ScreenshotNone})
		if perr != nil {
			// The batch ran; a failed snapshot after it does not undo that.
			res.Snapshot = &protocol.SnapshotResult{Tab: tab.Handle, Status: protocol.SnapshotFailure, TruncatedReason: perr.Message, Outcome: protocol.OutcomeNotStarted}
		} else {
			res.Snapshot = &snap
		}
	}
	return res, nil
}

// actReceipt applies an extension's act answer (a batch's, or a commit's
// one step) to the host's state, the revision floor, the tabs the steps'
// pages opened and a closed tab, and turns it into the agent's receipt.
func (h *Host) actReceipt(ctx context.Context, task store.Task, tab store.OwnedTab, ext protocol.ExtActResult) protocol.ActResult {
	h.raiseFloor(ctx, tab.ChromeTabID, ext.Revision)
	h.attachPopups(ctx, task.ID, ext.Steps, ext.Popups)
	res := protocol.ActResult{
		Tab: tab.Handle, Steps: ext.Steps, PageRevision: ext.Revision, URL: ext.URL, Title: ext.Title,
		Dialog: ext.Dialog, OriginStops: ext.OriginStops, Challenge: h.checkedChallenge(ext.Challenge), Outcome: batchOutcome(ext.Steps),
	}
	for _, s := range ext.Steps {
		if s.Error != nil {
			res.Error = s.Error
			break
		}
	}
	if ext.Closed {
		if err := h.revoke(ctx, tab.ChromeTabID, protocol.RevokeClosed); err != nil {
			h.log.Printf("closing %s: %v", tab.Handle, err)
		}
	}
	return res
}

// batchOutcome is the weakest outcome among the steps that ran: a batch is
// only as confirmed as its least confirmed step.
func batchOutcome(steps []protocol.StepReceipt) protocol.Outcome {
	rank := map[protocol.Outcome]int{protocol.OutcomeConfirmed: 0, protocol.OutcomeObserved: 0, protocol.OutcomeDispatched: 1, protocol.OutcomeStaged: 2, protocol.OutcomeUnknown: 3}
	out, seen := protocol.OutcomeNotStarted, false
	for _, s := range steps {
		r, ran := rank[s.Outcome]
		if !ran {
			continue
		}
		if !seen || r > rank[out] {
			out, seen = s.Outcome, true
		}
	}
	return out
}

func checkActParams(p *protocol.ActParams) *protocol.Error {
	bad := func(msg, recovery string) *protocol.Error {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted, msg, recovery)
	}
	if p.ExpectedPageRevision < 1 {
		return bad(fmt.Sprintf("expected_page_revision is %d: it is missing, or not a page revision (they start at 1)", p.ExpectedPageRevision),
			"Pass the page_revision that browser_tabs, browser_snapshot or your last browser_act receipt gave for this tab.")
	}
	if len(p.Actions) < 1 || len(p.Actions) > protocol.MaxSteps {
		return bad(fmt.Sprintf("actions must hold 1 to %d steps", protocol.MaxSteps), "Split longer work into several calls.")
	}
	if perr := checkActionable(&p.ActionableTimeoutMs); perr != nil {
		return perr
	}
	for i := range p.Actions {
		if perr := checkStep(&p.Actions[i]); perr != nil {
			perr.Message = fmt.Sprintf("step %d (%s): %s", i, p.Actions[i].Kind, perr.Message)
			return perr
		}
	}
	return nil
}

// checkActionable fills in the default actionable_timeout_ms (browser_act's
// and browser_commit's) and refuses one out of bounds.
func checkActionable(v **int) *protocol.Error {
	if *v == nil {
		*v = new(protocol.DefaultActionableMs)
	}
	if ms := **v; ms < 0 || ms > protocol.MaxActionableMs {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			fmt.Sprintf("actionable_timeout_ms must be between 0 and %d, or omitted for %d; it was %d", protocol.MaxActionableMs, protocol.DefaultActionableMs, ms),
			"Omit actionable_timeout_ms for the default; 0 refuses a target that is not actionable at once.")
	}
	return nil
}

// checkStep refuses a step its kind's rule (protocol.StepRules) does not
// admit, before the batch is recorded under its idempotency key, and
// checks the values the host reads itself (the navigate URL, the wait
// condition, the sizes).
func checkStep(s *protocol.Step) *protocol.Error {
	bad := func(msg string) *protocol.Error { return protocol.Fail(protocol.CodeInvalidParams, msg) }
	if problem := protocol.StepProblem(*s); problem != "" {
		return bad(problem)
	}
	if perr := checkLen("text", s.Text, 100000); perr != nil {
		return perr
	}
	switch s.Kind {
	case protocol.StepPress:
		if len(s.Keys) > 64 {
			return bad(`keys is longer than 64 bytes; press one key or chord, such as "Enter" or "Control+A"`)
		}
	case protocol.StepSelect:
		if len(s.Values) > 100 {
			return bad("values holds more than 100 options")
		}
	case protocol.StepNavigate:
		target, perr := checkURL(s.URL)
		if perr != nil {
			return perr
		}
		s.URL = target
	case protocol.StepWait:
		if perr := checkWaitCondition(s.Wait); perr != nil {
			return perr
		}
	}
	return nil
}
