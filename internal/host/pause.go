package host

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// Pause and Resume. Source of truth: spec 000 and 001 (Pause closes
// admission, lets dispatched work settle, rejects queued work as not
// started, and persists the paused state before reporting it; Resume
// reconciles ownership first) and DESIGN.md "Pause" (global; persisted by
// the host and the extension; if they disagree at start, paused).

// settleTimeout bounds how long Pause waits for dispatched work.
const settleTimeout = 60 * time.Second

// pauseCallTimeout bounds the extension's part of Pause and Resume.
const pauseCallTimeout = 30 * time.Second

// openAdmission ends the host's start: ready, or paused when either side
// persisted a Pause (then both are told).
func (h *Host) openAdmission(ctx context.Context, hello protocol.NativeHello) error {
	hostPaused, err := h.store.Paused(ctx)
	if err != nil {
		return err
	}
	if !hostPaused && !hello.Paused {
		h.life.set(protocol.LifecycleReady)
		return nil
	}
	reason, err := h.store.PauseReason(ctx)
	if err != nil {
		return err
	}
	if !hostPaused || reason == "" {
		// The extension's Pause (one begun while no host listened), or
		// one stored before pause reasons were.
		reason = string(hello.PauseReason)
	}
	if reason == "" {
		reason = string(protocol.PauseByUser)
	}
	if err := h.persistPause(ctx, protocol.PauseReason(reason)); err != nil {
		return err
	}
	// Told even when the extension restored its own Pause: one begun in the
	// popup while no host was connected shows pausing until a host says the
	// Pause is in force.
	var ext protocol.ExtPauseResult
	if perr := h.extCall(ctx, pauseCallTimeout, protocol.NativePause, struct{}{}, &ext, protocol.OutcomeUnknown); perr != nil {
		return fmt.Errorf("telling the extension it is paused: %w", perr)
	}
	h.life.set(protocol.LifecyclePaused)
	return nil
}

// pause serves `agenttab pause`.
func (h *Host) pause(ctx context.Context, c *call) (any, error) {
	if perr := corerpc.DecodeParams(c.params, &struct{}{}); perr != nil {
		return nil, perr
	}
	res, perr := h.pauseFrom(ctx, "cli", protocol.PauseByUser)
	if perr != nil {
		return nil, perr
	}
	c.outcome = protocol.OutcomeConfirmed
	return res, nil
}

// unpause serves `agenttab resume`.
func (h *Host) unpause(ctx context.Context, c *call) (any, error) {
	if perr := corerpc.DecodeParams(c.params, &struct{}{}); perr != nil {
		return nil, perr
	}
	res, perr := h.unpauseFrom(ctx, "cli")
	if perr != nil {
		return nil, perr
	}
	c.outcome = protocol.OutcomeConfirmed
	return res, nil
}

// pauseFrom closes admission (pausing), tells the extension at once, waits
// for admitted work to settle, persists the Pause (host, then extension)
// and only then reports it: status and the popup say pausing until then,
// never paused (spec 001: "a barrier, not an optimistic UI toggle").
func (h *Host) pauseFrom(ctx context.Context, source string, reason protocol.PauseReason) (protocol.PauseResult, *protocol.Error) {
	h.pauseMu.Lock()
	defer h.pauseMu.Unlock()
	switch h.life.get() {
	case protocol.LifecyclePaused:
		return protocol.PauseResult{Paused: true, Lifecycle: protocol.LifecyclePaused}, nil
	case protocol.LifecycleReady, protocol.LifecyclePausing: // pausing: an earlier Pause failed to store
	default:
		return protocol.PauseResult{}, h.life.admit()
	}
	h.life.setReason(reason)
	h.life.set(protocol.LifecyclePausing)
	// At once, not behind the work it waits for: the extension stops
	// admitting, shows pausing, and ends the adoption requests waiting for
	// the user, which are admitted but not dispatched (they would hold the
	// barrier up until their timeout; the waiting call ends paused).
	var began protocol.ExtPauseResult
	if perr := h.extCall(ctx, pauseCallTimeout, protocol.NativePausing, struct{}{}, &began, protocol.OutcomeUnknown); perr != nil {
		h.log.Printf("pause: the extension did not hear that a pause began: %v", perr)
	}
	settle, cancel := context.WithTimeout(ctx, settleTimeout)
	defer cancel()
	if err := h.work.settled(settle); err != nil {
		h.log.Printf("pause: admitted work still running after %s; pausing anyway", settleTimeout)
	}
	if err := h.persistPause(ctx, reason); err != nil {
		return protocol.PauseResult{}, internalError("persisting the pause", err)
	}
	h.life.set(protocol.LifecyclePaused)
	var ext protocol.ExtPauseResult
	if perr := h.extCall(ctx, pauseCallTimeout, protocol.NativePause, struct{}{}, &ext, protocol.OutcomeUnknown); perr != nil {
		// The host is paused and says so; the extension learns it at its
		// next handshake (DESIGN.md: if they disagree at start, paused).
		h.log.Printf("pause: the extension did not confirm: %v", perr)
	}
	h.auditEvent("event.pause", source)
	h.log.Printf("paused (%s, %s)", source, reason)
	return protocol.PauseResult{Paused: true, Lifecycle: protocol.LifecyclePaused}, nil
}

// unpauseFrom reconciles ownership first (tabs that vanished or left their
// group while paused are revoked), then clears the Pause on both sides and
// reopens admission.
func (h *Host) unpauseFrom(ctx context.Context, source string) (protocol.PauseResult, *protocol.Error) {
	h.pauseMu.Lock()
	defer h.pauseMu.Unlock()
	// Pausing here means an earlier Pause failed to store: Resume ends it.
	if l := h.life.get(); l != protocol.LifecyclePaused && l != protocol.LifecyclePausing {
		return protocol.PauseResult{Paused: false, Lifecycle: l}, nil
	}
	before, err := h.store.AllOwnedTabs(ctx)
	if err != nil {
		return protocol.PauseResult{}, internalError("listing tabs", err)
	}
	if err := h.reconcile(ctx); err != nil {
		return protocol.PauseResult{}, protocol.NewError(protocol.CodeExtensionGone, protocol.OutcomeNotStarted,
			"resume needs the extension to reconcile ownership first: "+err.Error(),
			"Make sure Chrome is running with the AgentTab extension, then resume again.")
	}
	var ext protocol.ExtPauseResult
	if perr := h.extCall(ctx, pauseCallTimeout, protocol.NativeUnpause, struct{}{}, &ext, protocol.OutcomeNotStarted); perr != nil {
		return protocol.PauseResult{}, perr
	}
	if err := h.store.SetPaused(ctx, false); err != nil {
		return protocol.PauseResult{}, internalError("persisting the resume", err)
	}
	if err := h.store.SetPauseReason(ctx, ""); err != nil {
		h.log.Printf("resume: clearing the pause reason: %v", err)
	}
	after, err := h.store.AllOwnedTabs(ctx)
	if err != nil {
		return protocol.PauseResult{}, internalError("listing tabs", err)
	}
	h.life.set(protocol.LifecycleReady)
	h.auditEvent("event.resume", source)
	h.log.Printf("resumed (%s); %d tab(s) revoked on reconciliation", source, len(before)-len(after))
	return protocol.PauseResult{Paused: false, Lifecycle: protocol.LifecycleReady, Revoked: len(before) - len(after)}, nil
}

// persistPause stores the Pause and who paused, before it is reported.
func (h *Host) persistPause(ctx context.Context, reason protocol.PauseReason) error {
	h.life.setReason(reason)
	if err := h.store.SetPauseReason(ctx, string(reason)); err != nil {
		return err
	}
	return h.store.SetPaused(ctx, true)
}

// auditEvent records a human's control as an event line (DESIGN.md "Audit").
func (h *Host) auditEvent(method, source string) {
	now := h.now()
	args, _ := json.Marshal(map[string]string{"source": source})
	h.writeAudit(audit.Record{
		TS: now, TSEnd: now, Kind: audit.KindEvent, Method: method, Outcome: protocol.OutcomeConfirmed,
		ArgsSummary: audit.Summarize(args), ArgsDigest: audit.Digest(args),
	})
}
