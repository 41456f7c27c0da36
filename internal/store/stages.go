package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Commit stages (migrations/0005_stages.sql; protocol/commit.go). Every
// change of state is one conditional UPDATE on the writer, committed with
// synchronous FULL before it returns: a stage the host marked consumed
// stays consumed after a crash, so its step is never sent twice.

// Stage is one staged step.
type Stage struct {
	ID           string
	TaskID       string
	TabHandle    string
	ChromeTabID  int
	Generation   int64
	PageRevision int64
	// Step is the step's JSON (protocol.Step), sent again by the commit.
	Step          json.RawMessage
	Effect        protocol.Effect
	Fingerprint   string
	PreviewDigest string
	// ReviewHandleHash is the hex SHA-256 of the extension's review handle.
	ReviewHandleHash string
	State            protocol.StageState
	CreatedAt        time.Time
	ExpiresAt        time.Time
	DecidedAt        *time.Time
}

// Expired says whether the stage's five minutes have passed at now.
func (s Stage) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

const stageColumns = `id, task_id, tab_handle, chrome_tab_id, generation, page_revision, step_json, effect, fingerprint,
	preview_digest, review_handle_hash, state, created_at, expires_at, decided_at`

// openStates are the states YOLO mode, finish and expiry still act on.
const openStates = `('` + string(protocol.StagePending) + `', '` + string(protocol.StageApproved) + `')`

// CreateStage records a new stage, pending, or discarded when st.State says
// so (the user turned YOLO mode on while its act was out: host/stages.go
// stageGate); ID and times are the caller's.
func (s *Store) CreateStage(ctx context.Context, st Stage) error {
	state, decided := protocol.StagePending, sql.NullInt64{}
	switch st.State {
	case "", protocol.StagePending:
	case protocol.StageDiscarded:
		state, decided = protocol.StageDiscarded, sql.NullInt64{Int64: millis(st.CreatedAt), Valid: true}
	default:
		return fmt.Errorf("store: create stage %s: a new stage is not %s", st.ID, st.State)
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO stages (`+stageColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		st.ID, st.TaskID, st.TabHandle, st.ChromeTabID, st.Generation, st.PageRevision, string(st.Step), string(st.Effect),
		st.Fingerprint, st.PreviewDigest, st.ReviewHandleHash, string(state), millis(st.CreatedAt), millis(st.ExpiresAt), decided)
	if err != nil {
		return fmt.Errorf("store: create stage %s: %w", st.ID, err)
	}
	return nil
}

// StageOf returns the task's stage id; another task's stage is ErrNotFound
// (a stage id grants nothing).
func (s *Store) StageOf(ctx context.Context, taskID, id string) (Stage, error) {
	return s.oneStage(ctx, `id = ? AND task_id = ?`, id, taskID)
}

// StageByHandleHash returns the stage the popup's review handle names.
func (s *Store) StageByHandleHash(ctx context.Context, hash string) (Stage, error) {
	return s.oneStage(ctx, `review_handle_hash = ?`, hash)
}

// ReviewStage approves or denies the stage whose handle hashes to hash,
// only while it is pending and unexpired, and returns the stage as it is
// afterwards (a stage whose time passed is marked expired first, so the
// popup learns it; any other state is returned unchanged).
func (s *Store) ReviewStage(ctx context.Context, hash string, approve bool, now time.Time) (Stage, error) {
	to := protocol.StageDenied
	if approve {
		to = protocol.StageApproved
	}
	var st Stage
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := expireStages(ctx, tx, now, `review_handle_hash = ?`, hash); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE stages SET state = ?, decided_at = ? WHERE review_handle_hash = ? AND state = ?`,
			string(to), millis(now), hash, string(protocol.StagePending)); err != nil {
			return err
		}
		var err error
		st, err = scanStage(tx.QueryRowContext(ctx, `SELECT `+stageColumns+` FROM stages WHERE review_handle_hash = ?`, hash))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Stage{}, fmt.Errorf("store: review stage: %w", ErrNotFound)
	}
	if err != nil {
		return Stage{}, fmt.Errorf("store: review stage: %w", err)
	}
	return st, nil
}

// ConsumeStage moves the task's stage from approved to consumed if it is
// still approved and unexpired at now, in one durable transaction, and
// returns the row as it is afterwards: State is consumed exactly when this
// call consumed it. The caller sends the step only then.
func (s *Store) ConsumeStage(ctx context.Context, taskID, id string, now time.Time) (Stage, bool, error) {
	var st Stage
	var consumed bool
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := expireStages(ctx, tx, now, `id = ?`, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE stages SET state = ?, decided_at = ? WHERE id = ? AND task_id = ? AND state = ?`,
			string(protocol.StageConsumed), millis(now), id, taskID, string(protocol.StageApproved))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		consumed = n == 1
		st, err = scanStage(tx.QueryRowContext(ctx, `SELECT `+stageColumns+` FROM stages WHERE id = ? AND task_id = ?`, id, taskID))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Stage{}, false, fmt.Errorf("store: consume stage %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Stage{}, false, fmt.Errorf("store: consume stage %s: %w", id, err)
	}
	return st, consumed, nil
}

// DiscardOpenStages discards every pending and approved stage (the user
// turned YOLO mode on) but those of the effects in keep, and counts them.
func (s *Store) DiscardOpenStages(ctx context.Context, now time.Time, keep ...protocol.Effect) (int, error) {
	where, args := `1 = 1`, []any{}
	for _, e := range keep {
		where += ` AND effect <> ?`
		args = append(args, string(e))
	}
	return s.discardStages(ctx, now, where, args...)
}

// DiscardTaskStages discards the task's pending and approved stages (the
// task finished) and counts them.
func (s *Store) DiscardTaskStages(ctx context.Context, taskID string, now time.Time) (int, error) {
	return s.discardStages(ctx, now, `task_id = ?`, taskID)
}

func (s *Store) discardStages(ctx context.Context, now time.Time, where string, args ...any) (int, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE stages SET state = ?, decided_at = ? WHERE state IN `+openStates+` AND `+where,
		append([]any{string(protocol.StageDiscarded), millis(now)}, args...)...)
	if err != nil {
		return 0, fmt.Errorf("store: discard stages: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// ExpireStages marks every open stage whose time has passed expired.
func (s *Store) ExpireStages(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = expireStages(ctx, tx, now, `1 = 1`)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: expire stages: %w", err)
	}
	return int(n), nil
}

func expireStages(ctx context.Context, tx *sql.Tx, now time.Time, where string, args ...any) (int64, error) {
	res, err := tx.ExecContext(ctx, `UPDATE stages SET state = ?, decided_at = ? WHERE state IN `+openStates+` AND expires_at <= ? AND `+where,
		append([]any{string(protocol.StageExpired), millis(now), millis(now)}, args...)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *Store) oneStage(ctx context.Context, where string, args ...any) (Stage, error) {
	st, err := scanStage(s.read.QueryRowContext(ctx, `SELECT `+stageColumns+` FROM stages WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Stage{}, fmt.Errorf("store: stage: %w", ErrNotFound)
	}
	if err != nil {
		return Stage{}, fmt.Errorf("store: stage: %w", err)
	}
	return st, nil
}

func scanStage(r rowScanner) (Stage, error) {
	var st Stage
	var step, effect, state string
	var created, expires int64
	var decided sql.NullInt64
	err := r.Scan(&st.ID, &st.TaskID, &st.TabHandle, &st.ChromeTabID, &st.Generation, &st.PageRevision, &step, &effect,
		&st.Fingerprint, &st.PreviewDigest, &st.ReviewHandleHash, &state, &created, &expires, &decided)
	if err != nil {
		return Stage{}, err
	}
	st.Step, st.Effect, st.State = json.RawMessage(step), protocol.Effect(effect), protocol.StageState(state)
	st.CreatedAt, st.ExpiresAt, st.DecidedAt = fromMillis(created), fromMillis(expires), timePtr(decided)
	return st, nil
}
