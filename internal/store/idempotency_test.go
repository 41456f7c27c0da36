package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestIdempotency(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	other := newTask(t, s, "conn_2")

	existing, err := s.BeginIdempotent(ctx, task.ID, "k1", "browser_open", "sha256:aa", t0)
	if err != nil || existing != nil {
		t.Fatalf("first BeginIdempotent() = %+v, %v; want nil, nil", existing, err)
	}
	started := IdemRecord{TaskID: task.ID, Key: "k1", Method: "browser_open", ArgsDigest: "sha256:aa",
		State: IdemStarted, CreatedAt: t0}

	// The started record is durable: a reopened store (a restarted host)
	// sees it and must answer unknown rather than dispatch again.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	existing, err = s2.BeginIdempotent(ctx, task.ID, "k1", "browser_act", "sha256:bb", at(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&started, existing); diff != "" {
		t.Errorf("BeginIdempotent(existing) mismatch (-want +got):\n%s", diff)
	}

	// Keys are scoped to the task.
	if existing, err := s.BeginIdempotent(ctx, other.ID, "k1", "browser_open", "sha256:aa", t0); err != nil || existing != nil {
		t.Errorf("same key in another task = %+v, %v; want a new record", existing, err)
	}

	result := []byte(`{"outcome":"confirmed"}`)
	if err := s.CompleteIdempotent(ctx, task.ID, "k1", result, false, at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	existing, err = s.BeginIdempotent(ctx, task.ID, "k1", "browser_open", "sha256:aa", at(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	completed := started
	completed.State, completed.Result, completed.CompletedAt = IdemCompleted, result, ptr(at(time.Minute))
	if diff := cmp.Diff(&completed, existing); diff != "" {
		t.Errorf("completed record mismatch (-want +got):\n%s", diff)
	}

	if _, err := s.BeginIdempotent(ctx, task.ID, "k2", "browser_act", "sha256:cc", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteIdempotent(ctx, task.ID, "k2", []byte(`{"code":"not_owned"}`), true, t0); err != nil {
		t.Fatal(err)
	}
	failed, err := s.BeginIdempotent(ctx, task.ID, "k2", "browser_act", "sha256:cc", t0)
	if err != nil || failed == nil || !failed.Failed {
		t.Errorf("failed record = %+v, %v; want Failed", failed, err)
	}
}

func TestIdempotencyRefusals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	if _, err := s.BeginIdempotent(ctx, task.ID, "done", "browser_open", "sha256:aa", t0); err != nil {
		t.Fatal(err)
	}
	if err := s.CompleteIdempotent(ctx, task.ID, "done", []byte(`{}`), false, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BeginIdempotent(ctx, task.ID, "open", "browser_open", "sha256:aa", t0); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		call   func() error
		target error
	}{
		{"begin without key", func() error {
			_, err := s.BeginIdempotent(ctx, task.ID, "", "browser_open", "sha256:aa", t0)
			return err
		}, nil},
		{"begin on unknown task", func() error {
			_, err := s.BeginIdempotent(ctx, "task_missing", "k", "browser_open", "sha256:aa", t0)
			return err
		}, nil},
		{"complete unknown key", func() error { return s.CompleteIdempotent(ctx, task.ID, "nope", []byte(`{}`), false, t0) }, ErrNotFound},
		{"complete twice", func() error { return s.CompleteIdempotent(ctx, task.ID, "done", []byte(`{"x":1}`), false, t0) }, nil},
		{"complete with invalid JSON", func() error { return s.CompleteIdempotent(ctx, task.ID, "open", []byte(`{`), false, t0) }, nil},
		{"complete with no result", func() error { return s.CompleteIdempotent(ctx, task.ID, "open", nil, false, t0) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil {
				t.Fatal("succeeded")
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("error = %v, want %v", err, tt.target)
			}
		})
	}
	// The refused second completion left the first result in place.
	rec, err := s.BeginIdempotent(ctx, task.ID, "done", "browser_open", "sha256:aa", t0)
	if err != nil || string(rec.Result) != `{}` {
		t.Errorf("completed record = %+v, %v; want the first result kept", rec, err)
	}
}
