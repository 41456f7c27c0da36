package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestOpenFileModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits on Windows")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	// An existing, too-open file is narrowed.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	newTask(t, s, "conn_1") // forces a WAL write
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s mode = %o, want 600", filepath.Base(p), got)
		}
	}
}

func TestOpenRefusesQuestionMark(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "a?b.db")); err == nil {
		t.Fatal("Open accepted a path with '?'")
	}
}

func TestMigrationsIdempotentOnReopen(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		s2, err := Open(path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		var v int
		if err := s2.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		ms, err := loadMigrations(migrationFS)
		if err != nil {
			t.Fatal(err)
		}
		if v != len(ms) {
			t.Errorf("user_version = %d, want %d", v, len(ms))
		}
		got, err := s2.Task(ctx, task.ID)
		if err != nil {
			t.Fatalf("data lost on reopen: %v", err)
		}
		if diff := cmp.Diff(task, got); diff != "" {
			t.Errorf("task changed on reopen (-want +got):\n%s", diff)
		}
		if err := s2.IntegrityCheck(ctx); err != nil {
			t.Error(err)
		}
		if err := s2.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// openTest's cleanup closes s again; Close of a closed sql.DB is fine.
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	s, path := openTest(t)
	if _, err := s.db.Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "newer than this AgentTab knows") {
		t.Fatalf("Open() = %v, want a newer-schema refusal", err)
	}
}

func TestIntegrityCheckFailsOnCorruption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 512)), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		// Migration usually fails first; if not, the check must.
		defer s.Close()
		if err := s.IntegrityCheck(context.Background()); err == nil {
			t.Fatal("a garbage file passed Open and IntegrityCheck")
		}
	}
}

func TestLoadMigrations(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name    string
		fs      fstest.MapFS
		want    []int
		wantErr string
	}{
		{name: "ordered by number", fs: fstest.MapFS{
			"migrations/0002_b.sql": file("B"), "migrations/0001_a.sql": file("A"), "migrations/0010_c.txt": file("x"),
		}, want: []int{1, 2}},
		{name: "gap", fs: fstest.MapFS{"migrations/0001_a.sql": file("A"), "migrations/0003_c.sql": file("C")}, wantErr: "expected number 2"},
		{name: "bad name", fs: fstest.MapFS{"migrations/init.sql": file("A")}, wantErr: "NNNN_description.sql"},
		{name: "zero", fs: fstest.MapFS{"migrations/0000_a.sql": file("A")}, wantErr: "NNNN_description.sql"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := loadMigrations(tt.fs)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("loadMigrations() error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range ms {
				got = append(got, m.version)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("versions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConcurrentWriters runs writers on two Store values over one file (two
// connection pools, as two hosts would be if the lock failed) and on one
// pool. busy_timeout and BEGIN IMMEDIATE must turn every contention into a
// wait, never SQLITE_BUSY.
func TestConcurrentWriters(t *testing.T) {
	s1, path := openTest(t)
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx := context.Background()
	if err := s1.InsertConnection(ctx, Connection{ID: "conn_1", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}

	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		s := s1
		if w%2 == 1 {
			s = s2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				task, err := s.CreateTask(ctx, "conn_1", "", t0)
				if err != nil {
					errs <- err
					continue
				}
				if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: w*1000 + i, Source: SourceCreated, CreatedAt: t0}); err != nil {
					errs <- err
				}
				if _, err := s.BeginIdempotent(ctx, task.ID, "k", "browser_open", "sha256:x", t0); err != nil {
					errs <- err
				}
				if err := s.SetRevisionFloor(ctx, 7, int64(i)); err != nil {
					errs <- err
				}
				if err := s.CompleteIdempotent(ctx, task.ID, "k", []byte(`{}`), false, t0); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tasks, err := s1.ActiveTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != writers*each {
		t.Fatalf("got %d tasks, want %d", len(tasks), writers*each)
	}
	// Seqs are unique and dense: no two writers got the same number.
	for i, task := range tasks {
		if task.Seq != int64(i+1) {
			t.Fatalf("task %d has seq %d", i, task.Seq)
		}
	}
}
