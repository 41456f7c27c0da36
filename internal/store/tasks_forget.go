package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Rows nobody needs again are deleted, so that a client connecting in a
// loop (issue 9) does not grow state.db by a connection and a task each
// time. A finished task that never owned a tab has nothing to keep: it
// cannot be resumed, owns no tab generation, and its idempotency records
// are never read again (keys are scoped to the task, and the connection's
// next request starts a new task). A task that ever owned a tab is kept:
// its owned_tabs rows carry the generations that must only grow. Labels
// stay unique after a deletion because seq is AUTOINCREMENT
// (migrations/0001_init.sql). The audit keeps the history.

// bareFinished selects finished tasks with no owned_tabs row, ever.
const bareFinished = `state = '` + TaskFinished + `' AND NOT EXISTS (SELECT 1 FROM owned_tabs o WHERE o.task_id = tasks.id)`

// ForgetTask deletes the task's rows if it is finished and never owned a
// tab, and reports whether it did.
func (s *Store) ForgetTask(ctx context.Context, taskID string) (bool, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = forgetTasks(ctx, tx, `id = ?`, taskID)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: forget task %s: %w", taskID, err)
	}
	return n > 0, nil
}

// ForgetConnection deletes, once connID has closed, the rows of the
// finished tasks it made that never owned a tab, and then the
// connection's own row unless a task still names it.
func (s *Store) ForgetConnection(ctx context.Context, connID string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := forgetTasks(ctx, tx, `connection_id = ?`, connID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM connections WHERE id = ? AND closed_at IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM tasks WHERE connection_id = connections.id)`, connID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: forget connection %s: %w", connID, err)
	}
	return nil
}

// forgetTasks deletes the bare finished tasks matching where, with the
// rows that name them.
func forgetTasks(ctx context.Context, tx *sql.Tx, where string, args ...any) (int64, error) {
	sel := `SELECT id FROM tasks WHERE ` + bareFinished + ` AND ` + where
	if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency WHERE task_id IN (`+sel+`)`, args...); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM tasks WHERE `+bareFinished+` AND `+where, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
