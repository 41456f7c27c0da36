package store

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEventReceipts(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	a := newTask(t, s, "conn_1")
	b := newTask(t, s, "conn_2")
	var want []EventReceipt
	for i, kind := range []string{"navigation", "download", "navigation"} {
		payload := []byte(`{"n":` + strconv.Itoa(i) + `}`)
		id, err := s.AddEventReceipt(ctx, a.ID, kind, payload, at(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, EventReceipt{ID: id, TaskID: a.ID, Kind: kind, Payload: payload, CreatedAt: at(time.Duration(i) * time.Second)})
	}
	if _, err := s.AddEventReceipt(ctx, b.ID, "navigation", []byte(`{}`), t0); err != nil {
		t.Fatal(err)
	}
	got, err := s.EventReceipts(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EventReceipts() mismatch (-want +got):\n%s", diff)
	}
	for i := 1; i < len(got); i++ {
		if got[i].ID <= got[i-1].ID {
			t.Errorf("receipt ids do not grow: %d after %d", got[i].ID, got[i-1].ID)
		}
	}
}

func TestEventReceiptRefusals(t *testing.T) {
	s, _ := openTest(t)
	ctx := context.Background()
	task := newTask(t, s, "conn_1")
	tests := []struct {
		name    string
		taskID  string
		kind    string
		payload string
	}{
		{"invalid JSON", task.ID, "navigation", `{`},
		{"empty payload", task.ID, "navigation", ``},
		{"empty kind", task.ID, "", `{}`},
		{"unknown task", "task_missing", "navigation", `{}`},
	}
	for _, tt := range tests {
		if _, err := s.AddEventReceipt(ctx, tt.taskID, tt.kind, []byte(tt.payload), t0); err == nil {
			t.Errorf("%s: AddEventReceipt succeeded", tt.name)
		}
	}
}
