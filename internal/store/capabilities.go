package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Resume capabilities are kept as hashes only; the store never sees a
// capability value. Source of truth: spec 000 ("the host returns it once
// and persists only its SHA-256 hash") and spec 001 (persist-then-confirm;
// once a replacement is confirmed the old capability no longer resumes).

// IssueCapability records the hash of a newly issued capability for the
// task: the first one (unconfirmed until ConfirmCapability) when the task
// has none, otherwise the rotated replacement that awaits confirmation
// while the one in force still resumes.
func (s *Store) IssueCapability(ctx context.Context, taskID, hash string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE tasks SET
			cap_pending_hash = CASE WHEN cap_hash IS NULL THEN NULL ELSE ? END,
			cap_hash = CASE WHEN cap_hash IS NULL THEN ? ELSE cap_hash END
		WHERE id = ? AND state = ?`, hash, hash, taskID, TaskActive)
	if err != nil {
		return fmt.Errorf("store: issue capability for task %s: %w", taskID, err)
	}
	return expectOne(res, "store: issue capability for active task "+taskID)
}

// ConfirmCapability puts the task's latest issued capability in force: the
// first one becomes usable; a replacement takes the old one's place, which
// stops resuming.
func (s *Store) ConfirmCapability(ctx context.Context, taskID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE tasks SET
			cap_hash = COALESCE(cap_pending_hash, cap_hash), cap_pending_hash = NULL, cap_confirmed = 1
		WHERE id = ? AND state = ? AND cap_hash IS NOT NULL`, taskID, TaskActive)
	if err != nil {
		return fmt.Errorf("store: confirm capability of task %s: %w", taskID, err)
	}
	return expectOne(res, "store: confirm capability of active task "+taskID)
}

// TaskByCapability finds the active task a capability hash resumes: the
// confirmed capability in force, or a replacement awaiting confirmation
// (a client that persisted it and lost the connection before confirming
// must still get its task back).
func (s *Store) TaskByCapability(ctx context.Context, hash string) (Task, error) {
	t, err := scanTask(s.db.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks
		WHERE state = ? AND ((cap_hash = ? AND cap_confirmed = 1) OR cap_pending_hash = ?)`, TaskActive, hash, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return Task{}, fmt.Errorf("store: task by capability: %w", ErrNotFound)
	}
	if err != nil {
		return Task{}, fmt.Errorf("store: task by capability: %w", err)
	}
	return t, nil
}

// CapabilityConfirmed reports whether the task's first capability was ever
// confirmed (DESIGN.md "Tasks": an initial capability never confirmed
// releases its task when its connection closes).
func (s *Store) CapabilityConfirmed(ctx context.Context, taskID string) (bool, error) {
	var confirmed int
	err := s.db.QueryRowContext(ctx, `SELECT cap_confirmed FROM tasks WHERE id = ?`, taskID).Scan(&confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("store: capability of task %s: %w", taskID, ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("store: capability of task %s: %w", taskID, err)
	}
	return confirmed == 1, nil
}

// RebindTask moves an active task to connID (a resume on a new connection).
func (s *Store) RebindTask(ctx context.Context, taskID, connID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE tasks SET connection_id = ?, detached_at = NULL WHERE id = ? AND state = ?`,
		connID, taskID, TaskActive)
	if err != nil {
		return fmt.Errorf("store: rebind task %s to %s: %w", taskID, connID, err)
	}
	return expectOne(res, "store: rebind active task "+taskID)
}

// PromotePending puts a replacement in force when its holder presents it
// to resume: holding it proves it was stored, which is what confirmation
// says. Without this, a host that dies after issuing the next replacement
// but before delivering it would leave the client holding a capability
// that no longer resumes. A hash that is not the pending one changes
// nothing.
func (s *Store) PromotePending(ctx context.Context, taskID, hash string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE tasks SET cap_hash = cap_pending_hash, cap_pending_hash = NULL, cap_confirmed = 1
		WHERE id = ? AND state = ? AND cap_pending_hash = ?`, taskID, TaskActive, hash); err != nil {
		return fmt.Errorf("store: promote capability of task %s: %w", taskID, err)
	}
	return nil
}
