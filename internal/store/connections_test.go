package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestConnections(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	c := Connection{ID: "conn_1", OpenedAt: t0, PeerPID: 4242}
	if err := s.InsertConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertConnection(ctx, c); err == nil {
		t.Error("inserting a duplicate connection id succeeded")
	}
	if err := s.InsertConnection(ctx, Connection{OpenedAt: t0}); err == nil {
		t.Error("inserting a connection without id succeeded")
	}
	if err := s.UpdateConnectionMeta(ctx, "conn_1", "claude", "1.2", "conv-9"); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseConnection(ctx, "conn_1", at(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A second close keeps the first time.
	if err := s.CloseConnection(ctx, "conn_1", at(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Connection(ctx, "conn_1")
	if err != nil {
		t.Fatal(err)
	}
	want := Connection{ID: "conn_1", OpenedAt: t0, ClosedAt: ptr(at(time.Minute)), PeerPID: 4242,
		ClientName: "claude", ClientVersion: "1.2", ConversationID: "conv-9"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Connection() mismatch (-want +got):\n%s", diff)
	}
}

func TestConnectionsNotFound(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
	}{
		{"Connection", func() error { _, err := s.Connection(ctx, "nope"); return err }},
		{"UpdateConnectionMeta", func() error { return s.UpdateConnectionMeta(ctx, "nope", "a", "b", "c") }},
		{"CloseConnection", func() error { return s.CloseConnection(ctx, "nope", t0) }},
	}
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s() = %v, want ErrNotFound", tt.name, err)
		}
	}
}
