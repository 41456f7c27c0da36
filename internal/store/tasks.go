package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Task states.
const (
	TaskActive   = "active"
	TaskFinished = "finished"
)

// groupColors are Chrome's tab group colours (chrome.tabGroups.Color) in the
// order tasks receive them, so neighbouring tasks look different.
var groupColors = []string{"blue", "green", "purple", "orange", "cyan", "pink", "yellow", "red"}

// Task is a host-owned unit of agent work. A task belongs to one connection
// at a time; a detached task (ConnectionID "") stays resumable for 24 hours.
type Task struct {
	ID             string
	Seq            int64
	Label          string
	Color          string
	ConnectionID   string // "" when detached
	ConversationID string
	State          string // TaskActive or TaskFinished
	CreatedAt      time.Time
	DetachedAt     *time.Time
	FinishedAt     *time.Time
	// Developer: the task used Developer mode (MarkTaskDeveloper).
	Developer bool
}

const taskColumns = `id, seq, label, color, connection_id, conversation_id, state, created_at, detached_at, finished_at, developer`

// CreateTask creates an active task bound to connID. Its Seq is one more
// than any task ever created, so its label and colour are never reused.
func (s *Store) CreateTask(ctx context.Context, connID, conversationID string, now time.Time) (Task, error) {
	if connID == "" {
		return Task{}, errors.New("store: create task: a task is created by a connection; connection id is empty")
	}
	t := Task{
		ID:             protocol.HandlePrefixTask + randomHex(8),
		ConnectionID:   connID,
		ConversationID: conversationID,
		State:          TaskActive,
		CreatedAt:      fromMillis(millis(now)),
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// AUTOINCREMENT picks the seq; the label and colour derive from it.
		err := tx.QueryRowContext(ctx, `INSERT INTO tasks (id, label, color, connection_id, conversation_id, state, created_at)
			VALUES (?, '', '', ?, ?, ?, ?) RETURNING seq`,
			t.ID, connID, conversationID, TaskActive, millis(now)).Scan(&t.Seq)
		if err != nil {
			return err
		}
		t.Label = fmt.Sprintf("Agent %d", t.Seq)
		t.Color = groupColors[(t.Seq-1)%int64(len(groupColors))]
		_, err = tx.ExecContext(ctx, `UPDATE tasks SET label = ?, color = ? WHERE seq = ?`, t.Label, t.Color, t.Seq)
		return err
	})
	if err != nil {
		return Task{}, fmt.Errorf("store: create task for connection %s: %w", connID, err)
	}
	return t, nil
}

// Task returns the task with id, in any state.
func (s *Store) Task(ctx context.Context, id string) (Task, error) {
	t, err := scanTask(s.read.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Task{}, fmt.Errorf("store: task %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Task{}, fmt.Errorf("store: task %s: %w", id, err)
	}
	return t, nil
}

// ActiveTasks returns the active tasks, attached or detached, oldest first.
func (s *Store) ActiveTasks(ctx context.Context) ([]Task, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+taskColumns+` FROM tasks WHERE state = ? ORDER BY seq`, TaskActive)
	if err != nil {
		return nil, fmt.Errorf("store: active tasks: %w", err)
	}
	defer rows.Close()
	var out []Task
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("store: active tasks: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: active tasks: %w", err)
	}
	return out, nil
}

// FinishTask finishes the task at at and releases the tabs it still owns in
// the same transaction, so a finished task never owns a tab. Callers that
// report how many tabs were released call ReleaseTaskTabs first. Finishing
// a finished task changes nothing.
func (s *Store) FinishTask(ctx context.Context, id string, at time.Time) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var state string
		err := tx.QueryRowContext(ctx, `SELECT state FROM tasks WHERE id = ?`, id).Scan(&state)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil || state == TaskFinished {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE tasks SET state = ?, finished_at = ? WHERE id = ?`,
			TaskFinished, millis(at), id); err != nil {
			return err
		}
		_, err = releaseTabs(ctx, tx, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: finish task %s: %w", id, err)
	}
	return nil
}

// DetachConnectionTasks detaches the active tasks of a closed connection.
// They keep their tabs and stay resumable (DESIGN.md "Tasks").
func (s *Store) DetachConnectionTasks(ctx context.Context, connID string, at time.Time) error {
	_, err := s.db.ExecContext(ctx, `UPDATE tasks SET connection_id = NULL, detached_at = ?
		WHERE connection_id = ? AND state = ?`, millis(at), connID, TaskActive)
	if err != nil {
		return fmt.Errorf("store: detach tasks of connection %s: %w", connID, err)
	}
	return nil
}

// FinishDetachedBefore finishes the active tasks that were detached before
// cutoff (the 24-hour rule: cutoff is now minus 24 hours) and releases their
// tabs without closing them. It returns the finished ids, oldest first.
// Their FinishedAt is the wall clock at the call: the cutoff says which
// tasks expire, not when.
func (s *Store) FinishDetachedBefore(ctx context.Context, cutoff time.Time) ([]string, error) {
	var ids []string
	finishedAt := millis(time.Now())
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM tasks
			WHERE state = ? AND connection_id IS NULL AND detached_at < ? ORDER BY seq`, TaskActive, millis(cutoff))
		if err != nil {
			return err
		}
		ids, err = scanStrings(rows)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE tasks SET state = ?, finished_at = ? WHERE id = ?`,
				TaskFinished, finishedAt, id); err != nil {
				return err
			}
			if _, err := releaseTabs(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: finish tasks detached before %s: %w", cutoff.UTC().Format(time.RFC3339), err)
	}
	return ids, nil
}

// rowScanner is what *sql.Row and *sql.Rows have in common.
type rowScanner interface {
	Scan(dest ...any) error
}

func scanTask(r rowScanner) (Task, error) {
	var t Task
	var conn sql.NullString
	var created int64
	var detached, finished sql.NullInt64
	if err := r.Scan(&t.ID, &t.Seq, &t.Label, &t.Color, &conn, &t.ConversationID, &t.State,
		&created, &detached, &finished, &t.Developer); err != nil {
		return Task{}, err
	}
	t.ConnectionID = conn.String
	t.CreatedAt = fromMillis(created)
	t.DetachedAt = timePtr(detached)
	t.FinishedAt = timePtr(finished)
	return t, nil
}

func scanStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
