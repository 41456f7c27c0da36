package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const (
	pausedKey      = "paused"
	pauseReasonKey = "pause_reason"
)

// Paused reports the persisted Pause (DESIGN.md "Pause": persisted by the
// host as well as the extension).
func (s *Store) Paused(ctx context.Context) (bool, error) {
	v, err := s.setting(ctx, pausedKey)
	return v == "true", err
}

// SetPaused persists the Pause before it is reported.
func (s *Store) SetPaused(ctx context.Context, paused bool) error {
	v := "false"
	if paused {
		v = "true"
	}
	return s.setSetting(ctx, pausedKey, v)
}

// PauseReason returns who paused (a protocol.PauseReason; "" when none was
// stored), so that refusals and status can say what to do.
func (s *Store) PauseReason(ctx context.Context) (string, error) {
	return s.setting(ctx, pauseReasonKey)
}

// SetPauseReason stores who paused, with the Pause.
func (s *Store) SetPauseReason(ctx context.Context, reason string) error {
	return s.setSetting(ctx, pauseReasonKey, reason)
}

// setting reads one host-wide setting ("" when unset).
func (s *Store) setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: setting %s: %w", key, err)
	}
	return v, nil
}

func (s *Store) setSetting(ctx context.Context, key, v string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, v); err != nil {
		return fmt.Errorf("store: set %s: %w", key, err)
	}
	return nil
}
