package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// popupTask is one task as the popup lists it (extension/src/popup/tasks.ts).
type popupTask struct {
	Task      string   `json:"task"`
	Class     string   `json:"class"`
	Color     string   `json:"color"`
	Label     string   `json:"label"`
	Count     string   `json:"count"`
	State     string   `json:"state"`
	Buttons   []string `json:"buttons"`
	Connected bool     `json:"connected"`
}

const readPopupTasks = `[...document.querySelectorAll("#tasks > li")].map(li => ({
	task: li.dataset.task, class: li.className, connected: li.classList.contains("connected"),
	color: li.querySelector(".swatch")?.style.background ?? "",
	label: li.querySelector(".label")?.textContent ?? "",
	count: li.querySelector(".count")?.textContent ?? "",
	state: li.querySelector(".state")?.textContent ?? "",
	buttons: [...li.querySelectorAll("button")].map(b => b.className),
}))`

func popupTasks(t testing.TB, popup *harness.ExtensionPage) map[string]popupTask {
	t.Helper()
	var list []popupTask
	popup.Eval(t, readPopupTasks, &list)
	out := map[string]popupTask{}
	for _, p := range list {
		out[p.Task] = p
	}
	return out
}

// Issue 12 ("Ending a task from the popup"): the popup lists each task
// with its colour, label, tab count, whether its agent is connected and
// when it last acted. A task whose agent exited without browser_finish
// shows as disconnected and is cleaned up with one click (its tabs closed,
// no group left); a connected task's End, keep tabs leaves its tabs open
// and ungrouped, and its agent's next call hears task_ended once (nothing
// runs), the one after starts a new task. The audit records each ending
// without labels or URLs.
func TestEndTaskFromThePopup(t *testing.T) {
	e := harness.Start(t)
	gone := e.ServePages(map[string]string{"/a1": page("Left one"), "/a2": page("Left two")})
	fx := &hitCounter{hits: map[string]int{}}
	base := e.Serve(fx)

	// Agent A opens two tabs and its adapter exits without browser_finish.
	sA := e.MCP(t)
	openedA := ok(t, sA, protocol.MethodOpen, map[string]any{"url": gone + "/a1"})
	ok(t, sA, protocol.MethodOpen, map[string]any{"url": gone + "/a2"})
	taskA := taskOf(t, openedA)
	idA, labelA := fmt.Sprint(taskA["id"]), fmt.Sprint(taskA["label"])
	groupA := chromeTabByURL(t, e, gone+"/a1").GroupID
	g, _ := groupByID(t, e, groupA)
	colorA := g.Color // the colour Chrome shows the task's group in
	tabsA := []int{chromeTabByURL(t, e, gone+"/a1").ID, chromeTabByURL(t, e, gone+"/a2").ID}
	if groupA < 0 || colorA == "" {
		t.Fatalf("agent A's tab is in no group with a colour: group %d, %+v", groupA, g)
	}

	// Agent B works on a page that counts clicks, and stays connected.
	sB := e.MCP(t)
	tabB, revB, refsB := reviewTab(t, sB, base)
	tasksB := ok(t, sB, protocol.MethodTabs, nil)
	idB, labelB := fmt.Sprint(taskOf(t, tasksB)["id"]), fmt.Sprint(taskOf(t, tasksB)["label"])
	chromeB := chromeTabByURL(t, e, base+"/")
	if chromeB.GroupID < 0 {
		t.Fatalf("agent B's tab is in no group")
	}

	sA.Close()

	popup := e.OpenExtensionPage(t, "popup.html")
	var listed map[string]popupTask
	e.WaitFor(t, "the popup to list A disconnected and B connected", 10*time.Second, func() bool {
		listed = popupTasks(t, popup)
		return len(listed) == 2 && !listed[idA].Connected && listed[idB].Connected
	})
	a, b := listed[idA], listed[idB]
	if a.Label != labelA || a.Color != colorA || a.Count != "2 tabs" || !strings.HasPrefix(a.State, "disconnected · last acted ") ||
		!strings.Contains(a.Class, "disconnected") || strings.Join(a.Buttons, " ") != "end-keep end-close" {
		t.Errorf("the popup lists agent A's task as %+v, want %s %s, 2 tabs, disconnected with when it last acted, and both endings at once", a, labelA, colorA)
	}
	if b.Label != labelB || b.Count != "1 tab" || !strings.HasPrefix(b.State, "connected · last acted ") || strings.Join(b.Buttons, " ") != "end-task" {
		t.Errorf("the popup lists agent B's task as %+v, want %s, 1 tab, connected with when it last acted, and End task… only", b, labelB)
	}

	// One click cleans up the disconnected task: tabs closed, no group.
	popup.Click(t, `#tasks > li[data-task="`+idA+`"] button.end-close`)
	e.WaitFor(t, "agent A's tabs to close", 10*time.Second, func() bool {
		for _, tab := range e.ChromeTabs(t) {
			if tab.ID == tabsA[0] || tab.ID == tabsA[1] {
				return false
			}
		}
		return true
	})
	noGroup(t, e, groupA, labelA)
	e.WaitFor(t, "the popup to drop agent A's task", 5*time.Second, func() bool {
		_, still := popupTasks(t, popup)[idA]
		return !still
	})

	// The connected task asks first; End, keep tabs leaves its tab open and
	// ungrouped.
	popup.Click(t, `#tasks > li[data-task="`+idB+`"] button.end-task`)
	popup.Click(t, `#tasks > li[data-task="`+idB+`"] button.end-keep`)
	e.WaitFor(t, "agent B's tab to leave its group", 10*time.Second, func() bool {
		return chromeTabByURL(t, e, base+"/").GroupID == -1
	})
	if got := chromeTabByURL(t, e, base+"/"); got.ID != chromeB.ID {
		t.Fatalf("agent B's tab %d was replaced by %d", chromeB.ID, got.ID)
	}
	noGroup(t, e, chromeB.GroupID, labelB)
	popup.WaitText(t, "No tasks.", 5*time.Second)

	// B's next call is refused task_ended, once, and runs nothing.
	res := refused(t, sB, protocol.MethodAct, map[string]any{"tab": tabB, "expected_page_revision": revB, "actions": []any{step("click", "ref", refsB["next"])}}, protocol.CodeTaskEnded)
	if res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("task_ended: %v, want not_started", res)
	}
	fx.want(t, "a click refused task_ended", map[string]int{"next": 0})
	// The one after starts a new task; the old tab is no longer its.
	opened := ok(t, sB, protocol.MethodOpen, map[string]any{"url": base + "/other"})
	if id := fmt.Sprint(taskOf(t, opened)["id"]); id == idB || id == idA {
		t.Fatalf("after task_ended the agent works in task %s, want a new one", id)
	}
	refused(t, sB, protocol.MethodSnapshot, map[string]any{"tab": tabB}, protocol.CodeNotOwned)
	fx.want(t, "after End task", map[string]int{"next": 0})

	// The audit: one event.end_task per ending, with no label or URL.
	ends := map[string]bool{}
	for _, r := range auditRecords(t, e) {
		if r.Method == "event.end_task" {
			ends[r.TaskID] = true
		}
	}
	if len(ends) != 2 || !ends[idA] || !ends[idB] {
		t.Errorf("audit event.end_task records for tasks %v, want %s and %s", ends, idA, idB)
	}
	raw, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if !strings.Contains(line, `"event.end_task"`) {
			continue
		}
		for _, secret := range []string{labelA, labelB, gone, base, "Left one", "/a1"} {
			if strings.Contains(line, secret) {
				t.Errorf("the audit's end_task record holds %q: %s", secret, line)
			}
		}
	}
}

// noGroup checks Chrome has no group id, and none titled label.
func noGroup(t testing.TB, e *harness.Env, id int, label string) {
	t.Helper()
	e.WaitFor(t, "group "+strconv.Itoa(id)+" to go", 5*time.Second, func() bool {
		for _, g := range e.ChromeGroups(t) {
			if g.ID == id || g.Title == label {
				return false
			}
		}
		return true
	})
}
