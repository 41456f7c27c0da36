package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A finished task that never owned a tab goes with its idempotency
// records; an active one, and a finished one that owned a tab (its
// generations must only grow), stay. A closed connection goes once no task
// names it; an open one stays. Labels are not reused after a deletion.
func TestForgetTasksAndConnections(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	bare := newTask(t, s, "conn_1")
	if _, err := s.BeginIdempotent(ctx, bare.ID, "k", "browser_open", "d", t0); err != nil {
		t.Fatal(err)
	}
	active := newTask(t, s, "conn_1")
	hadTab := newTask(t, s, "conn_1")
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: hadTab.ID, ChromeTabID: 7, Source: SourceCreated, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{bare.ID, hadTab.ID} {
		if err := s.FinishTask(ctx, id, t0); err != nil {
			t.Fatal(err)
		}
	}

	if gone, err := s.ForgetTask(ctx, active.ID); err != nil || gone {
		t.Fatalf("ForgetTask(active) = %v, %v; want kept", gone, err)
	}
	if gone, err := s.ForgetTask(ctx, hadTab.ID); err != nil || gone {
		t.Fatalf("ForgetTask(a task that owned a tab) = %v, %v; want kept", gone, err)
	}
	if gone, err := s.ForgetTask(ctx, bare.ID); err != nil || !gone {
		t.Fatalf("ForgetTask(bare finished) = %v, %v; want deleted", gone, err)
	}
	if _, err := s.Task(ctx, bare.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the forgotten task is still there: %v", err)
	}
	var idem int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM idempotency WHERE task_id = ?`, bare.ID).Scan(&idem); err != nil || idem != 0 {
		t.Errorf("the forgotten task keeps %d idempotency records (%v)", idem, err)
	}

	// conn_1 is still open: it stays. Closed, tasks still name it.
	if err := s.ForgetConnection(ctx, "conn_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Connection(ctx, "conn_1"); err != nil {
		t.Fatalf("an open connection was deleted: %v", err)
	}
	if err := s.CloseConnection(ctx, "conn_1", at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetConnection(ctx, "conn_1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Connection(ctx, "conn_1"); err != nil {
		t.Fatalf("a connection tasks still name was deleted: %v", err)
	}
	// A connection whose bare finished tasks go with it, and nothing else.
	other := newTask(t, s, "conn_2")
	if err := s.FinishTask(ctx, other.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseConnection(ctx, "conn_2", at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetConnection(ctx, "conn_2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Connection(ctx, "conn_2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a closed connection nothing names is kept: %v", err)
	}
	if _, err := s.Task(ctx, other.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("its bare finished task is kept: %v", err)
	}

	next := newTask(t, s, "conn_3")
	if next.Seq != 5 || next.Label != "Agent 5" {
		t.Errorf("after deletions the next task is seq %d %q, want 5 \"Agent 5\"", next.Seq, next.Label)
	}
}

// Detached tasks come oldest detached first with the tabs they own now.
func TestDetachedTasks(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_a")
	b := newTask(t, s, "conn_b")
	newTask(t, s, "conn_c") // attached
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: a.ID, ChromeTabID: 1, Source: SourceCreated, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.DetachConnectionTasks(ctx, "conn_b", at(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.DetachConnectionTasks(ctx, "conn_a", at(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	got, err := s.DetachedTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != b.ID || got[0].OwnedTabs != 0 || got[1].ID != a.ID || got[1].OwnedTabs != 1 {
		t.Fatalf("DetachedTasks() = %+v, want %s (no tab) then %s (one tab)", got, b.ID, a.ID)
	}
	if n, err := s.CountDetached(ctx); err != nil || n != 2 {
		t.Errorf("CountDetached() = %d, %v; want 2", n, err)
	}
}

// A starting host detaches what a killed one left bound: every active task
// counts as detached from then on (and so falls under the bound and the
// expiry), a task detached earlier keeps its time, finished tasks stay
// finished, and every connection is closed.
func TestDetachAll(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_a")
	b := newTask(t, s, "conn_b")
	done := newTask(t, s, "conn_c")
	if err := s.DetachConnectionTasks(ctx, "conn_b", at(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTask(ctx, done.ID, at(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.DetachAll(ctx, at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, err := s.DetachedTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID {
		t.Fatalf("DetachedTasks() = %+v, want %s (detached first) then %s", got, b.ID, a.ID)
	}
	if !got[0].DetachedAt.Equal(at(time.Second)) || !got[1].DetachedAt.Equal(at(time.Minute)) {
		t.Errorf("detached at %v and %v, want %v and %v", got[0].DetachedAt, got[1].DetachedAt, at(time.Second), at(time.Minute))
	}
	for _, id := range []string{"conn_a", "conn_b", "conn_c"} {
		c, err := s.Connection(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if c.ClosedAt == nil {
			t.Errorf("connection %s still open after DetachAll", id)
		}
	}
}
