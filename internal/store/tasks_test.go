package store

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCreateTask(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.InsertConnection(ctx, Connection{ID: "conn_1", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}
	wantColors := []string{"blue", "green", "purple", "orange", "cyan", "pink", "yellow", "red", "blue", "green"}
	idPattern := regexp.MustCompile(`^task_[0-9a-f]{16}$`)
	seen := map[string]bool{}
	for i, color := range wantColors {
		task, err := s.CreateTask(ctx, "conn_1", "conv", at(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if !idPattern.MatchString(task.ID) || seen[task.ID] {
			t.Errorf("task id %q is malformed or repeated", task.ID)
		}
		seen[task.ID] = true
		want := Task{ID: task.ID, Seq: int64(i + 1), Label: "Agent " + strconv.Itoa(i+1), Color: color,
			ConnectionID: "conn_1", ConversationID: "conv", State: TaskActive, CreatedAt: at(time.Duration(i) * time.Second)}
		if diff := cmp.Diff(want, task); diff != "" {
			t.Errorf("CreateTask() #%d mismatch (-want +got):\n%s", i+1, diff)
		}
		stored, err := s.Task(ctx, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(task, stored); diff != "" {
			t.Errorf("Task() differs from CreateTask() (-created +stored):\n%s", diff)
		}
	}
}

func TestCreateTaskRefusals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if _, err := s.CreateTask(ctx, "", "", t0); err == nil {
		t.Error("CreateTask without a connection succeeded")
	}
	if _, err := s.CreateTask(ctx, "conn_missing", "", t0); err == nil {
		t.Error("CreateTask on an unknown connection succeeded (foreign key not enforced)")
	}
}

func TestSeqNeverReused(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_1")
	b := newTask(t, s, "conn_1")
	for _, id := range []string{a.ID, b.ID} {
		if err := s.FinishTask(ctx, id, t0); err != nil {
			t.Fatal(err)
		}
	}
	c := newTask(t, s, "conn_1")
	if c.Seq != 3 || c.Label != "Agent 3" {
		t.Errorf("after finishing two tasks the next is seq %d %q, want 3 \"Agent 3\"", c.Seq, c.Label)
	}
}

func TestFinishTask(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	other := newTask(t, s, "conn_1")
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 1, Source: SourceCreated, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTask(ctx, task.ID, at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// Finishing again keeps the first time.
	if err := s.FinishTask(ctx, task.ID, at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Task(ctx, task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != TaskFinished || !cmp.Equal(got.FinishedAt, ptr(at(time.Minute))) {
		t.Errorf("finished task = %+v", got)
	}
	if tabs, _ := s.OwnedTabs(ctx, task.ID); len(tabs) != 0 {
		t.Errorf("a finished task still owns %d tabs", len(tabs))
	}
	active, err := s.ActiveTasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Task{other}, active); diff != "" {
		t.Errorf("ActiveTasks() mismatch (-want +got):\n%s", diff)
	}
	if err := s.FinishTask(ctx, "task_missing", t0); !errors.Is(err, ErrNotFound) {
		t.Errorf("FinishTask(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.Task(ctx, "task_missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Task(missing) = %v, want ErrNotFound", err)
	}
}

func TestDetachAndFinishDetached(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	old := newTask(t, s, "conn_old")
	recent := newTask(t, s, "conn_recent")
	attached := newTask(t, s, "conn_live")
	done := newTask(t, s, "conn_old")
	if err := s.FinishTask(ctx, done.ID, t0); err != nil {
		t.Fatal(err)
	}
	tab, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: old.ID, ChromeTabID: 10, Source: SourceCreated, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}

	if err := s.DetachConnectionTasks(ctx, "conn_old", at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.DetachConnectionTasks(ctx, "conn_recent", at(20*time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Task(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := old
	want.ConnectionID = ""
	want.DetachedAt = ptr(at(time.Hour))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("detached task mismatch (-want +got):\n%s", diff)
	}
	// A detached task keeps its tabs: it is resumable.
	if tabs, _ := s.OwnedTabs(ctx, old.ID); len(tabs) != 1 {
		t.Errorf("detached task owns %d tabs, want 1", len(tabs))
	}
	// The finished task of the same connection is left alone.
	if d, _ := s.Task(ctx, done.ID); d.DetachedAt != nil {
		t.Errorf("a finished task was detached: %+v", d)
	}

	// The host passes now-24h; at now = t0+25h+1ms only the task detached
	// at t0+1h is past the 24-hour rule.
	now := at(25*time.Hour + time.Millisecond)
	ids, err := s.FinishDetachedBefore(ctx, now.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{old.ID}, ids); diff != "" {
		t.Errorf("FinishDetachedBefore() mismatch (-want +got):\n%s", diff)
	}
	finished, _ := s.Task(ctx, old.ID)
	if finished.State != TaskFinished || finished.FinishedAt == nil {
		t.Errorf("expired task = %+v, want finished", finished)
	}
	released, err := s.TabByHandle(ctx, old.ID, tab.Handle)
	if err != nil {
		t.Fatal(err)
	}
	if released.State != TabReleased {
		t.Errorf("expired task's tab state = %q, want released", released.State)
	}
	for _, id := range []string{recent.ID, attached.ID} {
		if task, _ := s.Task(ctx, id); task.State != TaskActive {
			t.Errorf("task %s = %q, want still active", id, task.State)
		}
	}
	// Nothing more to do: an empty list, not an error.
	ids, err = s.FinishDetachedBefore(ctx, at(2*time.Hour))
	if err != nil || len(ids) != 0 {
		t.Errorf("second FinishDetachedBefore() = %v, %v; want nothing", ids, err)
	}
}
