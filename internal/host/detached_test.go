package host

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// loopTurns is one more detached task per turn than the bound allows, many
// times over.
const loopTurns = MaxDetachedTasks + 64

// Issue 9: a client that connects, makes one browser call (which creates a
// task and its capability), confirms the capability and disconnects, in a
// loop. Before the bound each turn left a resumable task (and its store
// rows, and a lock entry for good). Now the host holds no per-task memory
// for any of them, keeps at most MaxDetachedTasks detached, has deleted
// the rows of those it finished, and the user's own detached task, the
// oldest of all but owning a tab, is never finished: it resumes with its
// tab.
func TestConnectLoopLeavesNothingBehind(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	var ku kept
	user := r.clientKeeping(ku.keep)
	opened := rpc[protocol.OpenResult](t, user, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	user.Close()
	waitClosed(t, r, h)

	for range loopTurns {
		c := r.client() // keeps and confirms every capability, as agenttab mcp does
		rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
		c.Close()
	}
	// A loop that finishes its task before it goes leaves nothing either.
	for range 16 {
		c := r.client()
		rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
		rpc[protocol.FinishResult](t, c, protocol.MethodFinish, nil)
		c.Close()
	}
	waitClosed(t, r, h)

	if n := h.taskLocks.held(); n != 0 {
		t.Errorf("%d task lock entries outlive their work", n)
	}
	detached, err := h.store.CountDetached(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tasks, conns := storeRows(t, r)
	t.Logf("after %d turns: %d detached tasks, %d task rows, %d connection rows", loopTurns, detached, tasks, conns)
	if detached > MaxDetachedTasks {
		t.Errorf("%d detached tasks after the loop, over the bound of %d", detached, MaxDetachedTasks)
	}
	if tasks > MaxDetachedTasks {
		t.Errorf("%d task rows after the loop: finished tasks that never owned a tab are kept", tasks)
	}
	if conns != 0 {
		t.Errorf("%d connection rows outlive their connections", conns)
	}
	// Each task finished early was released in the extension too.
	if n := count(r.ext.seen(), protocol.NativeFinish); n < loopTurns+1-MaxDetachedTasks {
		t.Errorf("the extension was told of %d finishes, want at least %d", n, loopTurns+1-MaxDetachedTasks)
	}

	back := r.client()
	if res := resume(t, back, ku.last(t)); !res.Resumed || res.Task.ID != opened.Task.ID {
		t.Fatalf("the user's detached task with a tab did not resume: %+v", res)
	}
	if tabs := rpc[protocol.TabsResult](t, back, protocol.MethodTabs, nil); len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab != opened.Tab.Tab {
		t.Fatalf("the user's resumed task lists %+v, want its tab %s", tabs.Tabs, opened.Tab.Tab)
	}
}

// When every detached task owns tabs, none is finished early: a new task is
// refused too_many_tasks, not_started, and none is made. Once the user
// closes one of those tabs its task can go, and a new task is made.
func TestNewTaskRefusedWhileEveryDetachedTaskOwnsTabs(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	var first protocol.OpenResult
	for i := range MaxDetachedTasks {
		c := r.client()
		opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
		if i == 0 {
			first = opened
		}
		c.Close()
	}
	waitClosed(t, r, h)
	tasksBefore, _ := storeRows(t, r)
	finishes := count(r.ext.seen(), protocol.NativeFinish)

	late := r.client()
	e := callErr(t, late, protocol.MethodTabs, nil)
	if e.Code != protocol.CodeTooManyTasks || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
		t.Fatalf("a new task with %d detached tasks owning tabs: %+v", MaxDetachedTasks, e)
	}
	if tasks, _ := storeRows(t, r); tasks != tasksBefore {
		t.Errorf("the refused call left %d task rows, want %d", tasks, tasksBefore)
	}
	if n := count(r.ext.seen(), protocol.NativeFinish); n != finishes {
		t.Errorf("a detached task that owns tabs was finished (%d finishes)", n-finishes)
	}

	var firstTab int
	if tabs, err := h.store.OwnedTabs(context.Background(), first.Task.ID); err != nil || len(tabs) != 1 {
		t.Fatalf("the first task's tabs: %v, %v", tabs, err)
	} else {
		firstTab = tabs[0].ChromeTabID
	}
	r.ext.userCloses(firstTab)
	waitFor(t, func() bool {
		tabs, _ := h.store.OwnedTabs(context.Background(), first.Task.ID)
		return len(tabs) == 0
	})
	if got := rpc[protocol.TabsResult](t, late, protocol.MethodTabs, nil); got.Task.ID == "" || got.Task.ID == first.Task.ID {
		t.Fatalf("after the user closed a tab the new agent got %+v", got.Task)
	}
	if task, err := h.store.Task(context.Background(), first.Task.ID); err == nil && task.State == "active" {
		t.Errorf("the task whose tab the user closed is still active: it should have made room")
	}
}

// A task's captured text is memory the host lets go when its connection
// closes; the resumed task reads the page again for the same cache_key.
func TestDetachedTaskLetsGoOfItsTexts(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	r.ext.mu.Lock()
	r.ext.pageText = "- heading \"Hello\" [ref=e1]\n"
	r.ext.mu.Unlock()
	var k kept
	c := &rigClient{r.clientKeeping(k.keep)}
	opened := rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	snap := protocol.SnapshotParams{Tab: opened.Tab.Tab, CacheKey: "k"}
	rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, snap)
	rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, snap)
	if n := count(r.ext.seen(), protocol.NativeSnapshot); n != 1 {
		t.Fatalf("the cached text was read %d times, want once", n)
	}
	if n := cachedTexts(h, opened.Task.ID); n != 1 {
		t.Fatalf("%d cached texts for the task, want 1", n)
	}
	c.Close()
	waitClosed(t, r, h)
	if n := cachedTexts(h, opened.Task.ID); n != 0 {
		t.Errorf("the detached task keeps %d cached texts", n)
	}

	back := r.client()
	if res := resume(t, back, k.last(t)); !res.Resumed {
		t.Fatal("not resumed")
	}
	rpc[protocol.SnapshotResult](t, back, protocol.MethodSnapshot, snap)
	if n := count(r.ext.seen(), protocol.NativeSnapshot); n != 2 {
		t.Errorf("after the resume the page was read %d times in all, want 2", n)
	}
}

func cachedTexts(h *Host, task string) int {
	h.texts.mu.Lock()
	defer h.texts.mu.Unlock()
	n := 0
	for k := range h.texts.entries {
		if k.task == task {
			n++
		}
	}
	return n
}

// waitClosed waits until the host is done closing the test's connections,
// all closed by now: it serves none and has forgotten every one, the last
// thing Closed does (a client's Close returns before Closed runs). If that
// never comes it gives up after a while and leaves it to the test's checks
// to say what is wrong.
func waitClosed(t *testing.T, r *rig, h *Host) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		h.mu.Lock()
		serving := len(h.sessions)
		h.mu.Unlock()
		if _, conns := storeRows(t, r); serving == 0 && conns == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// storeRows counts the rows of tasks and connections in state.db,
// read-only beside the running host.
func storeRows(t *testing.T, r *rig) (tasks, conns int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+r.dir.DB()+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT count(*) FROM tasks`).Scan(&tasks); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM connections`).Scan(&conns); err != nil {
		t.Fatal(err)
	}
	return tasks, conns
}

// A running host finishes a task detached for longer than its resumable
// window when a connection closes (before, only a starting host did), and
// releases its tabs without closing them.
func TestRunningHostFinishesExpiredTasks(t *testing.T) {
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	var h *Host
	r := startRig(t, withHost(&h), withClock(now))
	var k kept
	c := r.clientKeeping(k.keep)
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	c.Close()
	waitClosed(t, r, h)

	mu.Lock()
	clock = clock.Add(resumableFor + time.Minute)
	mu.Unlock()
	other := r.client()
	rpc[protocol.StatusResult](t, other, protocol.MethodStatus, nil)
	other.Close()
	waitClosed(t, r, h)

	task, err := h.store.Task(context.Background(), opened.Task.ID)
	if err != nil || task.State != "finished" {
		t.Fatalf("a task detached for longer than %s: %+v, %v; want finished", resumableFor, task, err)
	}
	var fin protocol.ExtFinishParams
	if err := json.Unmarshal(r.ext.lastParams(protocol.NativeFinish), &fin); err != nil || fin.TaskID != opened.Task.ID || len(fin.Close) != 0 {
		t.Errorf("the extension was told %+v (%v), want the task released without closing its tabs", fin, err)
	}
	if res := resume(t, r.client(), k.last(t)); res.Resumed {
		t.Error("the expired task resumed")
	}
}
