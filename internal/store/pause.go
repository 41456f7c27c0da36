package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

const pausedKey = "paused"

// Paused reports the persisted Pause (DESIGN.md "Pause": persisted by the
// host as well as the extension).
func (s *Store) Paused(ctx context.Context) (bool, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, pausedKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: paused: %w", err)
	}
	return v == "true", nil
}

// SetPaused persists the Pause before it is reported.
func (s *Store) SetPaused(ctx context.Context, paused bool) error {
	v := "false"
	if paused {
		v = "true"
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, pausedKey, v); err != nil {
		return fmt.Errorf("store: set paused: %w", err)
	}
	return nil
}
