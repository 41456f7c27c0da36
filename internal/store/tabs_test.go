package store

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAddOwnedTab(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	got, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 5, WindowID: 2, GroupID: 9,
		Source: SourceCreated, State: "ignored", Generation: 77, CreatedAt: t0.Add(1500 * time.Microsecond)})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^tab_[0-9a-f]{8}$`).MatchString(got.Handle) {
		t.Errorf("handle %q is malformed", got.Handle)
	}
	want := OwnedTab{Handle: got.Handle, TaskID: task.ID, ChromeTabID: 5, WindowID: 2, GroupID: 9,
		Generation: 1, Source: SourceCreated, State: TabOwned, CreatedAt: at(time.Millisecond)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AddOwnedTab() mismatch (-want +got):\n%s", diff)
	}
	byHandle, err := s.TabByHandle(ctx, task.ID, got.Handle)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, byHandle); diff != "" {
		t.Errorf("TabByHandle() mismatch (-want +got):\n%s", diff)
	}
	byChrome, err := s.OwnedTabByChromeID(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, byChrome); diff != "" {
		t.Errorf("OwnedTabByChromeID() mismatch (-want +got):\n%s", diff)
	}
}

func TestAddOwnedTabRefusals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	other := newTask(t, s, "conn_2")
	finished := newTask(t, s, "conn_3")
	if err := s.FinishTask(ctx, finished.ID, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 5, Source: SourceCreated, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		tab    OwnedTab
		target error // nil: any error
	}{
		{"already owned by another task", OwnedTab{TaskID: other.ID, ChromeTabID: 5, Source: SourceAdopted}, ErrAlreadyOwned},
		{"already owned by the same task", OwnedTab{TaskID: task.ID, ChromeTabID: 5, Source: SourceChild}, ErrAlreadyOwned},
		{"unknown task", OwnedTab{TaskID: "task_missing", ChromeTabID: 6, Source: SourceCreated}, ErrNotFound},
		{"finished task", OwnedTab{TaskID: finished.ID, ChromeTabID: 6, Source: SourceCreated}, nil},
		{"unknown source", OwnedTab{TaskID: task.ID, ChromeTabID: 6, Source: "manual"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddOwnedTab(ctx, tt.tab)
			if err == nil {
				t.Fatal("AddOwnedTab succeeded")
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("AddOwnedTab() = %v, want %v", err, tt.target)
			}
		})
	}
}

func TestTabLifecycleAndGenerations(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_1")
	b := newTask(t, s, "conn_2")

	first, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: a.ID, ChromeTabID: 5, Source: SourceCreated, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	revoked, ok, err := s.RevokeTab(ctx, 5, "moved_out")
	if err != nil || !ok {
		t.Fatalf("RevokeTab() = %v, %v", ok, err)
	}
	want := first
	want.State, want.RevokeReason, want.Generation = TabRevoked, "moved_out", 2
	if diff := cmp.Diff(want, revoked); diff != "" {
		t.Errorf("RevokeTab() mismatch (-want +got):\n%s", diff)
	}
	if _, ok, err := s.RevokeTab(ctx, 5, "closed"); ok || err != nil {
		t.Errorf("second RevokeTab() = %v, %v; want false, nil", ok, err)
	}
	if _, err := s.OwnedTabByChromeID(ctx, 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("OwnedTabByChromeID(revoked) = %v, want ErrNotFound", err)
	}
	// The revoked grant is still visible to its own task by handle.
	if got, err := s.TabByHandle(ctx, a.ID, first.Handle); err != nil || got.State != TabRevoked {
		t.Errorf("TabByHandle(revoked) = %+v, %v", got, err)
	}
	// But never to another task.
	if _, err := s.TabByHandle(ctx, b.ID, first.Handle); !errors.Is(err, ErrNotFound) {
		t.Errorf("TabByHandle(other task) = %v, want ErrNotFound", err)
	}

	// A new grant of the same Chrome tab continues past every generation.
	second, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: b.ID, ChromeTabID: 5, Source: SourceAdopted, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if second.Generation != 3 || second.Handle == first.Handle {
		t.Errorf("re-grant = gen %d handle %s; want gen 3 and a new handle", second.Generation, second.Handle)
	}
	if n, err := s.ReleaseTaskTabs(ctx, b.ID); err != nil || n != 1 {
		t.Errorf("ReleaseTaskTabs() = %d, %v; want 1", n, err)
	}
	third, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: a.ID, ChromeTabID: 5, Source: SourceChild, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if third.Generation != 4 {
		t.Errorf("grant after release = gen %d, want 4", third.Generation)
	}
	// Generations are per Chrome tab.
	fresh, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: a.ID, ChromeTabID: 6, Source: SourceCreated, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Generation != 1 {
		t.Errorf("first grant of tab 6 = gen %d, want 1", fresh.Generation)
	}
}

func TestOwnedTabsListsOnlyOwnedInOrder(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_1")
	b := newTask(t, s, "conn_2")
	var aTabs []OwnedTab
	for _, id := range []int{30, 10, 20} {
		tab, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: a.ID, ChromeTabID: id, Source: SourceCreated, CreatedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		aTabs = append(aTabs, tab)
	}
	bTab, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: b.ID, ChromeTabID: 40, Source: SourceCreated, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.RevokeTab(ctx, 10, "closed"); err != nil {
		t.Fatal(err)
	}
	got, err := s.OwnedTabs(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]OwnedTab{aTabs[0], aTabs[2]}, got); diff != "" {
		t.Errorf("OwnedTabs() mismatch (-want +got):\n%s", diff)
	}
	all, err := s.AllOwnedTabs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]OwnedTab{aTabs[0], aTabs[2], bTab}, all); diff != "" {
		t.Errorf("AllOwnedTabs() mismatch (-want +got):\n%s", diff)
	}
	if got, err := s.OwnedTabs(ctx, "task_none"); err != nil || len(got) != 0 {
		t.Errorf("OwnedTabs(unknown) = %v, %v; want none", got, err)
	}
}

func TestUpdateTabPlacement(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	if _, err := s.AddOwnedTab(ctx, OwnedTab{TaskID: task.ID, ChromeTabID: 5, WindowID: 1, GroupID: 2, Source: SourceCreated, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateTabPlacement(ctx, 5, 3, 4); err != nil {
		t.Fatal(err)
	}
	got, err := s.OwnedTabByChromeID(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got.WindowID != 3 || got.GroupID != 4 {
		t.Errorf("placement = window %d group %d, want 3 4", got.WindowID, got.GroupID)
	}
	if err := s.UpdateTabPlacement(ctx, 99, 3, 4); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateTabPlacement(unowned) = %v, want ErrNotFound", err)
	}
}
