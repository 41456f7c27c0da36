package store

import (
	"context"
	"errors"
	"testing"
)

// The capability life cycle of spec 001: an unconfirmed first capability
// does not resume; once confirmed it does; a replacement resumes alongside
// it until confirmed, and then alone.
func TestCapabilityLifeCycle(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.InsertConnection(ctx, Connection{ID: "conn_1", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertConnection(ctx, Connection{ID: "conn_2", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}
	task, err := s.CreateTask(ctx, "conn_1", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	resumes := func(hash string) bool {
		t.Helper()
		got, err := s.TaskByCapability(ctx, hash)
		if errors.Is(err, ErrNotFound) {
			return false
		}
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != task.ID {
			t.Fatalf("capability %s resumed %s, want %s", hash, got.ID, task.ID)
		}
		return true
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	must(s.IssueCapability(ctx, task.ID, "h1"))
	if resumes("h1") {
		t.Error("an unconfirmed first capability resumes")
	}
	if ok, _ := s.CapabilityConfirmed(ctx, task.ID); ok {
		t.Error("confirmed before ConfirmCapability")
	}
	must(s.ConfirmCapability(ctx, task.ID))
	if !resumes("h1") {
		t.Error("the confirmed capability does not resume")
	}

	must(s.IssueCapability(ctx, task.ID, "h2"))
	if !resumes("h1") || !resumes("h2") {
		t.Error("before confirmation, both the old and the replacement must resume")
	}
	must(s.ConfirmCapability(ctx, task.ID))
	if resumes("h1") {
		t.Error("the old capability still resumes after the replacement was confirmed")
	}
	if !resumes("h2") {
		t.Error("the confirmed replacement does not resume")
	}
	if resumes("nope") {
		t.Error("an unknown hash resumed a task")
	}

	must(s.RebindTask(ctx, task.ID, "conn_2"))
	if got, _ := s.Task(ctx, task.ID); got.ConnectionID != "conn_2" {
		t.Errorf("rebound to %q, want conn_2", got.ConnectionID)
	}
	must(s.FinishTask(ctx, task.ID, t0))
	if resumes("h2") {
		t.Error("a finished task resumed")
	}
	if err := s.IssueCapability(ctx, task.ID, "h3"); !errors.Is(err, ErrNotFound) {
		t.Errorf("issuing for a finished task: %v, want ErrNotFound", err)
	}
}

// A replacement presented to resume before it was confirmed is put in
// force, so the next replacement (which the host may die before
// delivering) cannot strand its holder.
func TestPromotePending(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if err := s.InsertConnection(ctx, Connection{ID: "conn_1", OpenedAt: t0}); err != nil {
		t.Fatal(err)
	}
	task, _ := s.CreateTask(ctx, "conn_1", "", t0)
	for _, step := range []func() error{
		func() error { return s.IssueCapability(ctx, task.ID, "a") },
		func() error { return s.ConfirmCapability(ctx, task.ID) },
		func() error { return s.IssueCapability(ctx, task.ID, "b") }, // delivered, not confirmed
		func() error { return s.PromotePending(ctx, task.ID, "b") },  // presented to resume
		func() error { return s.IssueCapability(ctx, task.ID, "c") }, // never delivered
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.TaskByCapability(ctx, "b"); err != nil || got.ID != task.ID {
		t.Fatalf("the promoted capability does not resume: %v", err)
	}
	if _, err := s.TaskByCapability(ctx, "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the capability the promotion replaced still resumes: %v", err)
	}
	if err := s.PromotePending(ctx, task.ID, "b"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TaskByCapability(ctx, "c"); err != nil || got.ID != task.ID {
		t.Errorf("promoting a hash that is not pending changed the pending one: %v", err)
	}
}
