package store

import (
	"context"
	"fmt"
)

// MarkTaskDeveloper records that the task used Developer mode. The mark is
// never cleared: spec 000 has Developer mode "visibly marked on a task",
// and a host restart must not hide that the task had it.
func (s *Store) MarkTaskDeveloper(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE tasks SET developer = 1 WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: mark task %s developer: %w", id, err)
	}
	return nil
}
