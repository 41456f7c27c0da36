package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetRevisionFloor raises the lowest page revision the host accepts for a
// Chrome tab: the newest revision the host has been told. A lower value
// never lowers it: revisions only move forward, and a late, stale report
// must not reopen old snapshots.
func (s *Store) SetRevisionFloor(ctx context.Context, chromeTabID int, revision int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO revision_floors (chrome_tab_id, revision) VALUES (?, ?)
		ON CONFLICT (chrome_tab_id) DO UPDATE SET revision = MAX(revision, excluded.revision)`,
		chromeTabID, revision)
	if err != nil {
		return fmt.Errorf("store: set revision floor of chrome tab %d: %w", chromeTabID, err)
	}
	return nil
}

// RevisionFloor returns the tab's floor, 0 when none was set.
func (s *Store) RevisionFloor(ctx context.Context, chromeTabID int) (int64, error) {
	var rev int64
	err := s.read.QueryRowContext(ctx, `SELECT revision FROM revision_floors WHERE chrome_tab_id = ?`, chromeTabID).Scan(&rev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: revision floor of chrome tab %d: %w", chromeTabID, err)
	}
	return rev, nil
}

// forgetRevisionFloor drops a Chrome tab's floor when the tab is granted
// (AddOwnedTab, in its transaction): the extension counts a granted tab's
// revisions from 1 (ownership.ts), and the floor an earlier grant of the
// same id reached says nothing about it. Chrome reuses tab ids in its next
// session, and a tab the user took back can be adopted again.
func forgetRevisionFloor(ctx context.Context, tx *sql.Tx, chromeTabID int) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM revision_floors WHERE chrome_tab_id = ?`, chromeTabID)
	return err
}
