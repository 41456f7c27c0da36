package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// Resume capabilities. Source of truth: spec 000 ("a 256-bit random bearer
// secret: the host returns it once and persists only its SHA-256 hash, and
// the client must durably persist and confirm it before another RPC. A
// successful resume returns a rotated capability under the same
// persist-then-confirm barrier") and spec 001 (until a replacement is
// confirmed the old one still resumes; a missing or invalid capability
// creates a new task, never another agent's). The value is only ever in
// the response envelope of the call that issued it: never in a result,
// the audit, the log or the store.

// capabilityBytes is 256 bits.
const capabilityBytes = 32

// maxCapabilityLen bounds what resume accepts (43 characters are issued).
const maxCapabilityLen = 128

// hexSHA256 is the hex SHA-256 of a secret the host keeps only hashed: a
// resume capability, a stage's review handle.
func hexSHA256(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// issueCapability makes a capability for the task and records its hash:
// the first one, or a replacement of the one in force.
func (h *Host) issueCapability(ctx context.Context, taskID string) (string, error) {
	b := make([]byte, capabilityBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	capability := base64.RawURLEncoding.EncodeToString(b)
	if err := h.store.IssueCapability(ctx, taskID, hexSHA256(capability)); err != nil {
		return "", err
	}
	return capability, nil
}

func (s *session) awaitingConfirm() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unconfirmed
}

// resume binds the connection to the task its capability names and hands
// out a rotated capability. It is only for a connection that has no task
// yet; an unknown capability resumes nothing.
func (h *Host) resume(ctx context.Context, c *call) (any, error) {
	var p protocol.ResumeParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if p.Capability == "" || len(p.Capability) > maxCapabilityLen {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"capability must be the non-empty value the host issued",
			"Pass the capability you stored, or omit resume to start a new task.")
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.taskID != "" {
		return nil, protocol.NewError(protocol.CodeInvalidRequest, protocol.OutcomeNotStarted,
			"resume must come before any browser work on a connection",
			"Open a new Core connection and resume on it first.")
	}
	task, err := h.store.TaskByCapability(ctx, hexSHA256(p.Capability))
	c.outcome = protocol.OutcomeConfirmed
	if errors.Is(err, store.ErrNotFound) {
		return protocol.ResumeResult{Resumed: false}, nil
	}
	if err != nil {
		return nil, internalError("looking up the capability", err)
	}
	unlock := h.lockTask(task.ID)
	defer unlock()
	if err := h.store.PromotePending(ctx, task.ID, hexSHA256(p.Capability)); err != nil {
		return nil, internalError("promoting the capability", err)
	}
	h.detachFromOtherSessions(s, task.ID)
	if err := h.store.RebindTask(ctx, task.ID, s.conn.ID()); errors.Is(err, store.ErrNotFound) {
		// Finished while this resume waited for the task's order (its
		// resumable window ended, or detached.go's bound finished it).
		return protocol.ResumeResult{Resumed: false}, nil
	} else if err != nil {
		return nil, internalError("rebinding the task", err)
	}
	capability, err := h.issueCapability(ctx, task.ID)
	if err != nil {
		return nil, internalError("rotating the capability", err)
	}
	s.taskID = task.ID
	s.unconfirmed = true
	c.taskID = task.ID
	c.capability = capability
	h.log.Printf("%s: resumed task %s (%s)", s.conn.ID(), task.ID, task.Label)
	return protocol.ResumeResult{Resumed: true, Task: &protocol.TaskRef{ID: task.ID, Label: task.Label}}, nil
}

// detachFromOtherSessions takes the task away from a connection that still
// holds it: a resume rebinds the task (spec 001). That connection's next
// browser request starts a new task of its own.
func (h *Host) detachFromOtherSessions(keep *session, taskID string) {
	h.mu.Lock()
	others := make([]*session, 0, len(h.sessions))
	for _, o := range h.sessions {
		if o != keep {
			others = append(others, o)
		}
	}
	h.mu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		if o.taskID == taskID {
			o.taskID = ""
			o.unconfirmed = false
		}
		o.mu.Unlock()
	}
}

// capabilityConfirm puts the capability issued last on this connection in
// force (the replaced one stops resuming) and reopens admission.
func (h *Host) capabilityConfirm(ctx context.Context, c *call) (any, error) {
	if perr := corerpc.DecodeParams(c.params, &struct{}{}); perr != nil {
		return nil, perr
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.unconfirmed {
		return nil, protocol.NewError(protocol.CodeInvalidRequest, protocol.OutcomeNotStarted,
			"no resume capability awaits confirmation on this connection", "Call capability_confirm only after a response that carried a capability.")
	}
	c.taskID = s.taskID
	// A task made and finished by the same call (browser_finish as the
	// first call) has nothing left to resume: the confirmation only
	// reopens the connection.
	if s.taskID != "" {
		if err := h.store.ConfirmCapability(ctx, s.taskID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, internalError("confirming the capability", err)
		}
	}
	s.unconfirmed = false
	c.outcome = protocol.OutcomeConfirmed
	return protocol.CapabilityConfirmResult{Confirmed: true}, nil
}

// releaseUnconfirmed finishes, without closing its tabs, a task whose first
// capability was never confirmed when its connection closed: nobody can
// resume it (DESIGN.md "Tasks"). It runs within Closed, so a client that
// connects and disconnects in a loop waits for each release.
func (h *Host) releaseUnconfirmed(ctx context.Context, s *session) {
	taskID := s.currentTask()
	if taskID == "" {
		return
	}
	confirmed, err := h.store.CapabilityConfirmed(ctx, taskID)
	if err != nil || confirmed {
		return
	}
	unlock := h.lockTask(taskID)
	defer unlock()
	task, err := h.store.Task(ctx, taskID)
	if err != nil || task.State != store.TaskActive {
		return
	}
	if _, perr := h.finishTask(ctx, s, task, false); perr != nil {
		h.log.Printf("releasing task %s, whose capability was never confirmed: %v", taskID, perr)
	}
}
