package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Idempotency record states.
const (
	IdemStarted   = "started"
	IdemCompleted = "completed"
)

// IdemRecord is what the host knows about one idempotency key of a task. A
// started record that outlives a crash means the call may have reached
// Chrome: it answers unknown and is never replayed (spec 000).
type IdemRecord struct {
	TaskID      string
	Key         string
	Method      string
	ArgsDigest  string
	State       string // IdemStarted or IdemCompleted
	Result      []byte // JSON; completed records only
	Failed      bool
	CreatedAt   time.Time
	CompletedAt *time.Time
}

// BeginIdempotent claims key for the task. When the key is new it records a
// started record (committed with synchronous FULL before it returns, so the
// caller may then dispatch) and returns nil. When the key exists it returns
// the existing record unchanged; the caller compares Method and ArgsDigest
// and decides between replay, unknown and idempotency_key_conflict.
func (s *Store) BeginIdempotent(ctx context.Context, taskID, key, method, argsDigest string, now time.Time) (*IdemRecord, error) {
	if key == "" {
		return nil, errors.New("store: begin idempotent call: empty key")
	}
	var existing *IdemRecord
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rec, err := scanIdem(tx.QueryRowContext(ctx, `SELECT task_id, key, method, args_digest, state, result, failed, created_at, completed_at
			FROM idempotency WHERE task_id = ? AND key = ?`, taskID, key))
		if err == nil {
			existing = &rec
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO idempotency (task_id, key, method, args_digest, state, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, taskID, key, method, argsDigest, IdemStarted, millis(now))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: begin idempotent %s key %s of task %s: %w", method, key, taskID, err)
	}
	return existing, nil
}

// CompleteIdempotent stores the final result of a started call. A completed
// record is never overwritten: its result is what every replay returns.
func (s *Store) CompleteIdempotent(ctx context.Context, taskID, key string, result []byte, failed bool, now time.Time) error {
	what := fmt.Sprintf("store: complete idempotent key %s of task %s", key, taskID)
	if !json.Valid(result) {
		return fmt.Errorf("%s: the result is not valid JSON", what)
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var state string
		err := tx.QueryRowContext(ctx, `SELECT state FROM idempotency WHERE task_id = ? AND key = ?`, taskID, key).Scan(&state)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if state != IdemStarted {
			return fmt.Errorf("the record is already %s", state)
		}
		_, err = tx.ExecContext(ctx, `UPDATE idempotency SET state = ?, result = ?, failed = ?, completed_at = ?
			WHERE task_id = ? AND key = ?`, IdemCompleted, result, failed, millis(now), taskID, key)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// IdempotencyRecords returns the task's records in the order they were
// started: what a crash would leave behind for it (host tests check that
// every mutation has one).
func (s *Store) IdempotencyRecords(ctx context.Context, taskID string) ([]IdemRecord, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT task_id, key, method, args_digest, state, result, failed, created_at, completed_at
		FROM idempotency WHERE task_id = ? ORDER BY created_at, rowid`, taskID)
	if err != nil {
		return nil, fmt.Errorf("store: idempotency records of task %s: %w", taskID, err)
	}
	defer rows.Close()
	var out []IdemRecord
	for rows.Next() {
		rec, err := scanIdem(rows)
		if err != nil {
			return nil, fmt.Errorf("store: idempotency records of task %s: %w", taskID, err)
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: idempotency records of task %s: %w", taskID, err)
	}
	return out, nil
}

func scanIdem(r rowScanner) (IdemRecord, error) {
	var rec IdemRecord
	var created int64
	var completed sql.NullInt64
	if err := r.Scan(&rec.TaskID, &rec.Key, &rec.Method, &rec.ArgsDigest, &rec.State, &rec.Result, &rec.Failed,
		&created, &completed); err != nil {
		return IdemRecord{}, err
	}
	rec.CreatedAt = fromMillis(created)
	rec.CompletedAt = timePtr(completed)
	return rec, nil
}

// IdempotencyKeyUsed says whether the task has a record of key, in any
// state. The host's revision check asks it first: a key with a record is
// answered from that record (replay, unknown or conflict), never refused
// by a check of the page as it is now.
func (s *Store) IdempotencyKeyUsed(ctx context.Context, taskID, key string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM idempotency WHERE task_id = ? AND key = ?`, taskID, key).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: idempotency key %s of task %s: %w", key, taskID, err)
	}
	return n > 0, nil
}
