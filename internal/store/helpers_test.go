package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// t0 is a fixed clock reading with whole milliseconds, the store's precision.
var t0 = time.UnixMilli(1_760_000_000_000).UTC()

func at(d time.Duration) time.Time { return t0.Add(d) }

func openTest(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, path
}

// newTask inserts a connection and creates one task on it.
func newTask(t *testing.T, s *Store, connID string) Task {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Connection(ctx, connID); err != nil {
		if err := s.InsertConnection(ctx, Connection{ID: connID, OpenedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	task, err := s.CreateTask(ctx, connID, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func ptr(t time.Time) *time.Time { return &t }
