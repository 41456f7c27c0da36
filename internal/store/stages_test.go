package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

func newStage(t *testing.T, s *Store, task Task, id, hash string) Stage {
	t.Helper()
	st := Stage{
		ID: id, TaskID: task.ID, TabHandle: "tab_1", ChromeTabID: 7, Generation: 1, PageRevision: 3,
		Step: json.RawMessage(`{"kind":"click","ref":"e1"}`), Effect: protocol.EffectSend, Fingerprint: "f", PreviewDigest: "p",
		ReviewHandleHash: hash, CreatedAt: t0, ExpiresAt: at(5 * time.Minute),
	}
	if err := s.CreateStage(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestStageReviewAndConsumeOnce(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	newStage(t, s, task, "stg_a", "h_a")
	if _, _, err := s.ConsumeStage(ctx, task.ID, "stg_a", at(time.Second)); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.StageOf(ctx, task.ID, "stg_a"); st.State != protocol.StagePending {
		t.Fatalf("consuming a pending stage changed it to %s", st.State)
	}
	st, err := s.ReviewStage(ctx, "h_a", true, at(time.Second))
	if err != nil || st.State != protocol.StageApproved {
		t.Fatalf("approve: %v %s", err, st.State)
	}
	// A later deny does not undo the approval.
	if st, _ := s.ReviewStage(ctx, "h_a", false, at(2*time.Second)); st.State != protocol.StageApproved {
		t.Fatalf("deny after approve: %s", st.State)
	}
	// Another task does not find it.
	other := newTask(t, s, "conn_2")
	if _, err := s.StageOf(ctx, other.ID, "stg_a"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another task's lookup: %v", err)
	}
	if _, _, err := s.ConsumeStage(ctx, other.ID, "stg_a", at(time.Second)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another task's consume: %v", err)
	}
	// Durable: a reopened store still has it approved, and consumes it once.
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	*s = *s2 // the cleanup closes it
	st, ok, err := s.ConsumeStage(ctx, task.ID, "stg_a", at(3*time.Second))
	if err != nil || !ok || st.State != protocol.StageConsumed || string(st.Step) != `{"kind":"click","ref":"e1"}` {
		t.Fatalf("consume: %v %v %+v", err, ok, st)
	}
	if st, ok, _ := s.ConsumeStage(ctx, task.ID, "stg_a", at(4*time.Second)); ok || st.State != protocol.StageConsumed {
		t.Fatalf("second consume: %v %s", ok, st.State)
	}
}

func TestStageExpiryDenyAndDiscard(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	other := newTask(t, s, "conn_2")
	newStage(t, s, task, "stg_exp", "h_exp")
	newStage(t, s, task, "stg_deny", "h_deny")
	newStage(t, s, task, "stg_appr", "h_appr")
	newStage(t, s, other, "stg_other", "h_other")

	// Approving after five minutes finds it expired.
	if st, _ := s.ReviewStage(ctx, "h_exp", true, at(5*time.Minute)); st.State != protocol.StageExpired {
		t.Fatalf("late approval: %s", st.State)
	}
	if st, _ := s.ReviewStage(ctx, "h_deny", false, at(time.Second)); st.State != protocol.StageDenied {
		t.Fatalf("deny: %s", st.State)
	}
	if _, err := s.ReviewStage(ctx, "h_none", true, at(time.Second)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown handle: %v", err)
	}
	if _, err := s.ReviewStage(ctx, "h_appr", true, at(time.Second)); err != nil {
		t.Fatal(err)
	}
	// An approved stage expires too.
	if st, ok, _ := s.ConsumeStage(ctx, task.ID, "stg_appr", at(6*time.Minute)); ok || st.State != protocol.StageExpired {
		t.Fatalf("consume after expiry: %v %s", ok, st.State)
	}
	// Finish discards the task's open stages only.
	newStage(t, s, task, "stg_open", "h_open")
	if n, err := s.DiscardTaskStages(ctx, task.ID, at(time.Second)); err != nil || n != 1 {
		t.Fatalf("discard task: %d %v", n, err)
	}
	if st, _ := s.StageOf(ctx, other.ID, "stg_other"); st.State != protocol.StagePending {
		t.Fatalf("another task's stage: %s", st.State)
	}
	// YOLO on discards every open one.
	if n, err := s.DiscardOpenStages(ctx, at(time.Second)); err != nil || n != 1 {
		t.Fatalf("discard all: %d %v", n, err)
	}
	if st, _ := s.StageByHandleHash(ctx, "h_deny"); st.State != protocol.StageDenied {
		t.Fatalf("a decided stage changed: %s", st.State)
	}
	newStage(t, s, other, "stg_late", "h_late")
	if n, err := s.ExpireStages(ctx, at(10*time.Minute)); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
}

// A stage recorded while YOLO mode is on is born discarded: nobody can
// approve it, and no commit takes it.
func TestStageCreatedDiscarded(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	st := Stage{ID: "stg_d", TaskID: task.ID, TabHandle: "tab_1", ChromeTabID: 7, Generation: 1, PageRevision: 3,
		Step: json.RawMessage(`{"kind":"click","ref":"e1"}`), Effect: protocol.EffectSend, Fingerprint: "f", PreviewDigest: "p",
		ReviewHandleHash: "h_d", State: protocol.StageDiscarded, CreatedAt: t0, ExpiresAt: at(5 * time.Minute)}
	if err := s.CreateStage(ctx, st); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReviewStage(ctx, "h_d", true, at(time.Second))
	if err != nil || got.State != protocol.StageDiscarded || got.DecidedAt == nil || !got.DecidedAt.Equal(t0) {
		t.Fatalf("approving it: %v %+v", err, got)
	}
	if _, ok, _ := s.ConsumeStage(ctx, task.ID, "stg_d", at(time.Second)); ok {
		t.Fatal("consumed a discarded stage")
	}
	st.ID, st.ReviewHandleHash, st.State = "stg_x", "h_x", protocol.StageApproved
	if err := s.CreateStage(ctx, st); err == nil {
		t.Fatal("created a stage already approved")
	}
}
