package store

import (
	"context"
	"testing"
)

func TestPausedPersists(t *testing.T) {
	s, path := openTest(t)
	ctx := context.Background()
	if p, err := s.Paused(ctx); err != nil || p {
		t.Fatalf("a new store is paused=%v (%v)", p, err)
	}
	if err := s.SetPaused(ctx, true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if p, _ := again.Paused(ctx); !p {
		t.Fatal("the pause did not survive a reopen")
	}
	if err := again.SetPaused(ctx, false); err != nil {
		t.Fatal(err)
	}
	if p, _ := again.Paused(ctx); p {
		t.Fatal("still paused after SetPaused(false)")
	}
}

func TestPauseReasonPersists(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	if r, err := s.PauseReason(ctx); err != nil || r != "" {
		t.Fatalf("a new store has reason %q (%v)", r, err)
	}
	if err := s.SetPauseReason(ctx, "debugger_canceled"); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.PauseReason(ctx); r != "debugger_canceled" {
		t.Fatalf("reason %q", r)
	}
}
