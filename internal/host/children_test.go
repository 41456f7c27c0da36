package host

import (
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// A child event grants the child to the task that owns its opener in the
// host's record; an event naming another task, or an opener nobody owns,
// grants nothing.
func TestChildTabsFollowTheirOpenersTask(t *testing.T) {
	r := startRig(t)
	a, b := r.client(), r.client()
	openedA := rpc[protocol.OpenResult](t, a, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/a", Mode: "create"})
	openedB := rpc[protocol.OpenResult](t, b, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/b", Mode: "create"})
	openerA := chromeIDOf(t, r, "https://example.com/a")

	r.ext.pageOpens(openerA, openedA.Task.ID)
	waitForTabs(t, a, 2)

	// A claim that A's popup belongs to B, and a popup of a tab nobody owns.
	r.ext.pageOpens(openerA, openedB.Task.ID)
	r.ext.pageOpens(9999, openedB.Task.ID)
	// Events are applied in order, so once a later true one has landed the
	// false ones have been weighed.
	r.ext.pageOpens(openerA, openedA.Task.ID)
	waitForTabs(t, a, 3)
	if got := rpc[protocol.TabsResult](t, b, protocol.MethodTabs, nil); len(got.Tabs) != 1 || got.Tabs[0].Tab != openedB.Tab.Tab {
		t.Errorf("task B was granted a tab it never opened: %+v", got.Tabs)
	}
}

func chromeIDOf(t *testing.T, r *rig, url string) int {
	t.Helper()
	r.ext.mu.Lock()
	defer r.ext.mu.Unlock()
	for id, tab := range r.ext.tabs {
		if tab.URL == url {
			return id
		}
	}
	t.Fatalf("the fake extension has no tab at %s", url)
	return 0
}

func waitForTabs(t *testing.T, c *corerpc.Client, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
		if len(got.Tabs) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task holds %d tabs, want %d: %+v", len(got.Tabs), n, got.Tabs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
