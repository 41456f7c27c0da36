package store

import (
	"context"
	"testing"
)

func TestRevisionFloor(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	steps := []struct {
		set  int64
		want int64
	}{
		{set: 3, want: 3},
		{set: 7, want: 7},
		{set: 5, want: 7}, // a late, lower report never lowers the floor
		{set: 7, want: 7},
		{set: 8, want: 8},
	}
	if got, err := s.RevisionFloor(ctx, 1); err != nil || got != 0 {
		t.Fatalf("RevisionFloor(unset) = %d, %v; want 0", got, err)
	}
	for _, st := range steps {
		if err := s.SetRevisionFloor(ctx, 1, st.set); err != nil {
			t.Fatal(err)
		}
		got, err := s.RevisionFloor(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got != st.want {
			t.Errorf("after SetRevisionFloor(%d) floor = %d, want %d", st.set, got, st.want)
		}
	}
	if got, _ := s.RevisionFloor(ctx, 2); got != 0 {
		t.Errorf("another tab's floor = %d, want 0", got)
	}
}

// A grant starts the tab's revisions afresh: the extension counts them from
// 1 again, and Chrome reuses tab ids across browser sessions.
func TestGrantForgetsAnEarlierFloor(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	if err := s.SetRevisionFloor(ctx, 5, 9); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRevisionFloor(ctx, 6, 4); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 5, Source: SourceAdopted}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.RevisionFloor(ctx, 5); err != nil || got != 0 {
		t.Errorf("the granted tab's floor = %d, %v; want 0", got, err)
	}
	if got, _ := s.RevisionFloor(ctx, 6); got != 4 {
		t.Errorf("another tab's floor = %d, want 4", got)
	}
	// A refused grant (the tab is owned) leaves the floor alone.
	if err := s.SetRevisionFloor(ctx, 5, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 5, Source: SourceAdopted}); err == nil {
		t.Fatal("a second grant of an owned tab succeeded")
	}
	if got, _ := s.RevisionFloor(ctx, 5); got != 2 {
		t.Errorf("after a refused grant the floor = %d, want 2", got)
	}
}

func TestIdempotencyKeyUsed(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	if used, err := s.IdempotencyKeyUsed(ctx, task.ID, "k"); err != nil || used {
		t.Fatalf("a new key: %v, %v", used, err)
	}
	if _, err := s.BeginIdempotent(ctx, task.ID, "k", "browser_act", "d", t0); err != nil {
		t.Fatal(err)
	}
	if used, err := s.IdempotencyKeyUsed(ctx, task.ID, "k"); err != nil || !used {
		t.Fatalf("a started key: %v, %v", used, err)
	}
	other := newTask(t, s, "conn_2")
	if used, _ := s.IdempotencyKeyUsed(ctx, other.ID, "k"); used {
		t.Fatal("another task's key counted")
	}
}
