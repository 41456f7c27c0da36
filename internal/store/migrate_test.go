package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"
)

// Issue 10: event_receipts was created by 0001 and never written; every
// event the host observes is kept in the row its effect lives in (owned_tabs,
// revision_floors, settings), so migration 0004 drops the table. A database
// written by the previous schema (receipts and all) upgrades with its tasks
// intact, and a new one has no trace of the table.
func TestEventReceiptsAreDropped(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	ms, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	const before = 3 // the last schema with event_receipts
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms[:before] {
		if _, err := old.ExecContext(ctx, m.sql); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}
	for _, q := range []string{
		"PRAGMA user_version = " + strconv.Itoa(before),
		`INSERT INTO connections (id, opened_at) VALUES ('conn_1', 1)`,
		`INSERT INTO tasks (id, label, color, connection_id, state, created_at) VALUES ('task_1', 'Agent 1', 'blue', 'conn_1', 'active', 1)`,
		`INSERT INTO event_receipts (task_id, kind, payload_json, created_at) VALUES ('task_1', 'navigation', '{}', 1)`,
	} {
		if _, err := old.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Task(ctx, "task_1"); err != nil {
		t.Errorf("the upgrade lost a task: %v", err)
	}
	fresh, _ := openTest(t)
	for name, db := range map[string]*sql.DB{"upgraded": s.db, "new": fresh.db} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name LIKE 'event_receipts%'`).Scan(&n); err != nil || n != 0 {
			t.Errorf("the %s database has %d event_receipts objects (%v), want none", name, n, err)
		}
	}
}
