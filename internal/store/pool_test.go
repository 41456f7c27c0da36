package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPragmasOnEveryConnection holds every pooled connection at once, so
// each is a separate SQLite connection, and checks each one's pragmas: the
// writer's durability settings, the readers' query_only.
func TestPragmasOnEveryConnection(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	for _, pool := range []struct {
		name string
		db   *sql.DB
		n    int
		want []any
	}{
		{"writer", s.db, writerConns, []any{"wal", 2, 5000, 1, 0}},
		{"reader", s.read, readerConns, []any{"wal", 2, 5000, 1, 1}},
	} {
		var conns []*sql.Conn
		for range pool.n {
			c, err := pool.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			conns = append(conns, c)
		}
		for i, c := range conns {
			var mode string
			var sync, busy, fk, queryOnly int
			for _, q := range []struct {
				sql  string
				dest any
			}{
				{"PRAGMA journal_mode", &mode},
				{"PRAGMA synchronous", &sync},
				{"PRAGMA busy_timeout", &busy},
				{"PRAGMA foreign_keys", &fk},
				{"PRAGMA query_only", &queryOnly},
			} {
				if err := c.QueryRowContext(ctx, q.sql).Scan(q.dest); err != nil {
					t.Fatalf("%s %d: %s: %v", pool.name, i, q.sql, err)
				}
			}
			got := []any{mode, sync, busy, fk, queryOnly}
			if diff := cmp.Diff(pool.want, got); diff != "" {
				t.Errorf("%s %d pragmas (journal_mode, synchronous, busy_timeout, foreign_keys, query_only) mismatch (-want +got):\n%s", pool.name, i, diff)
			}
		}
	}
}

// A write sent to the readers fails rather than racing the writer.
func TestReadersCannotWrite(t *testing.T) {
	s, _ := openTest(t)
	if _, err := s.read.Exec(`INSERT INTO settings (key, value) VALUES ('x', 'y')`); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Fatalf("a write on a reader: %v, want a readonly refusal", err)
	}
}

// Issue 9: hundreds of concurrent callers share the store's fixed
// connections; it opens no more (and so holds no more descriptors) than it
// did at Open, and every call succeeds.
func TestPoolIsBounded(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	before := dbDescriptors(t, path)
	if err := s.InsertConnection(ctx, Connection{ID: "conn_1", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}
	const callers = 300
	var wg sync.WaitGroup
	errs := make(chan error, 3*callers)
	for i := range callers {
		wg.Go(func() {
			task, err := s.CreateTask(ctx, "conn_1", "", t0)
			if err != nil {
				errs <- err
				return
			}
			if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: i, Source: SourceCreated, CreatedAt: t0}); err != nil {
				errs <- err
			}
			if _, err := s.ActiveTasks(ctx); err != nil {
				errs <- err
			}
			if _, err := s.OwnedTabs(ctx, task.ID); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if w, r := s.db.Stats().OpenConnections, s.read.Stats().OpenConnections; w != writerConns || r != readerConns {
		t.Errorf("open connections: %d writer, %d readers; want %d and %d", w, r, writerConns, readerConns)
	}
	if after := dbDescriptors(t, path); after != before {
		t.Errorf("descriptors on the database: %d after the callers, %d after Open", after, before)
	}
}

// dbDescriptors counts this process's descriptors on the database and its
// -wal and -shm files (-1 where /proc does not exist).
func dbDescriptors(t *testing.T, path string) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		return -1
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, path) {
			n++
		}
	}
	return n
}
