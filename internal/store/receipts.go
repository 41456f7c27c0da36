package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// EventReceipt is a durable note that a task observed an event. It is local
// reliability data, not proof that an external effect happened (spec 000).
type EventReceipt struct {
	ID        int64
	TaskID    string
	Kind      string
	Payload   []byte // JSON
	CreatedAt time.Time
}

// AddEventReceipt records an event for a task and returns its id, which
// grows with every receipt.
func (s *Store) AddEventReceipt(ctx context.Context, taskID, kind string, payload []byte, now time.Time) (int64, error) {
	what := fmt.Sprintf("store: add %s receipt for task %s", kind, taskID)
	if kind == "" {
		return 0, fmt.Errorf("%s: empty kind", what)
	}
	if !json.Valid(payload) {
		return 0, fmt.Errorf("%s: the payload is not valid JSON", what)
	}
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO event_receipts (task_id, kind, payload_json, created_at)
		VALUES (?, ?, ?, ?) RETURNING id`, taskID, kind, string(payload), millis(now)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return id, nil
}

// EventReceipts returns the task's receipts in the order they were added.
func (s *Store) EventReceipts(ctx context.Context, taskID string) ([]EventReceipt, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, task_id, kind, payload_json, created_at
		FROM event_receipts WHERE task_id = ? ORDER BY id`, taskID)
	if err != nil {
		return nil, fmt.Errorf("store: event receipts of task %s: %w", taskID, err)
	}
	defer rows.Close()
	var out []EventReceipt
	for rows.Next() {
		var r EventReceipt
		var payload string
		var created int64
		if err := rows.Scan(&r.ID, &r.TaskID, &r.Kind, &payload, &created); err != nil {
			return nil, fmt.Errorf("store: event receipts of task %s: %w", taskID, err)
		}
		r.Payload = []byte(payload)
		r.CreatedAt = fromMillis(created)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: event receipts of task %s: %w", taskID, err)
	}
	return out, nil
}
