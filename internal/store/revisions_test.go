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
