package host

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// A tab the extension made and grouped for a task while the host that
// asked for it died before recording it is found at the next
// reconciliation (here a Resume's): the task owns it from then on, so
// browser_tabs lists it and browser_finish {close_tabs: true} closes it.
func TestReconcileRecordsATabTheHostNeverRecorded(t *testing.T) {
	r := startRig(t)
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	orphan := r.ext.unrecorded(opened.Task.ID, "https://example.com/orphan")
	if got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil); len(got.Tabs) != 1 {
		t.Fatalf("before reconciliation the task lists %+v, want only its recorded tab", got.Tabs)
	}

	rpc[protocol.PauseResult](t, r.client(), protocol.MethodPause, nil)
	rpc[protocol.PauseResult](t, r.client(), protocol.MethodUnpause, nil)

	got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
	var urls []string
	for _, tab := range got.Tabs {
		urls = append(urls, tab.URL)
	}
	if want := []string{"https://example.com/", "https://example.com/orphan"}; strings.Join(urls, " ") != strings.Join(want, " ") {
		t.Fatalf("after reconciliation the task lists %v, want %v", urls, want)
	}
	if got.Tabs[1].PageRevision != 3 {
		t.Errorf("the found tab's revision is %d, want the extension's 3", got.Tabs[1].PageRevision)
	}
	fin := rpc[protocol.FinishResult](t, c, protocol.MethodFinish, protocol.FinishParams{CloseTabs: true})
	if fin.Closed != 2 {
		t.Errorf("finish closed %d tabs, want both", fin.Closed)
	}
	r.ext.mu.Lock()
	_, open := r.ext.tabs[orphan]
	r.ext.mu.Unlock()
	if open {
		t.Error("finish {close_tabs: true} left the found tab open")
	}
}
