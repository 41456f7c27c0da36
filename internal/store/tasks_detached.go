package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DetachedTask is an active task no connection holds, with the number of
// tabs it owns now: the host's bound on detached tasks finishes early only
// tasks that own none (internal/host/detached.go).
type DetachedTask struct {
	Task
	OwnedTabs int
}

// DetachedTasks returns the active tasks no connection holds, the one
// detached longest first.
func (s *Store) DetachedTasks(ctx context.Context) ([]DetachedTask, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+taskColumns+`,
			(SELECT count(*) FROM owned_tabs o WHERE o.task_id = tasks.id AND o.state = ?)
		FROM tasks WHERE state = ? AND connection_id IS NULL ORDER BY detached_at, seq`, TabOwned, TaskActive)
	if err != nil {
		return nil, fmt.Errorf("store: detached tasks: %w", err)
	}
	defer rows.Close()
	var out []DetachedTask
	for rows.Next() {
		var d DetachedTask
		var err error
		d.Task, err = scanTask(withTail{rows, &d.OwnedTabs})
		if err != nil {
			return nil, fmt.Errorf("store: detached tasks: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: detached tasks: %w", err)
	}
	return out, nil
}

// CountDetached returns how many active tasks no connection holds.
func (s *Store) CountDetached(ctx context.Context) (int, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM tasks WHERE state = ? AND connection_id IS NULL`,
		TaskActive).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count detached tasks: %w", err)
	}
	return n, nil
}

// withTail scans a task row followed by more columns into tail.
type withTail struct {
	r    rowScanner
	tail any
}

func (w withTail) Scan(dest ...any) error { return w.r.Scan(append(dest, w.tail)...) }

// DetachAll detaches every active task still bound to a connection and
// closes every connection still open, as of at. A starting host calls it:
// no connection of an earlier host survives it, and a host that was killed
// never ran its connections' close handlers, so without this their tasks
// would sit outside the detached-task bound and the 24-hour expiry, both of
// which count only detached tasks (issue 9 review).
func (s *Store) DetachAll(ctx context.Context, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET connection_id = NULL, detached_at = COALESCE(detached_at, ?)
			WHERE state = ? AND connection_id IS NOT NULL`, millis(at), TaskActive); err != nil {
			return fmt.Errorf("store: detach every task: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE connections SET closed_at = ? WHERE closed_at IS NULL`, millis(at)); err != nil {
			return fmt.Errorf("store: close every connection: %w", err)
		}
		return nil
	})
}
