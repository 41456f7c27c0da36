package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

const suspendPage = `<!doctype html><title>Suspend</title>
<button onclick="document.querySelector('p').textContent = 'clicked after the wake'">Press</button>
<p>not clicked</p>`

// Issue 15: Chrome stops the MV3 service worker while its native port is
// open (its idle timeout, an update, DevTools), so the host exits and no
// worker code runs to reconnect. Stopped here with the DevTools protocol's
// ServiceWorker.stopAllWorkers rather than by waiting out Chrome's timeout.
// The same MCP client's next calls succeed with no user action: the
// extension's watchdog alarm wakes the worker, which connects, Chrome
// starts a new host, the adapter (which waits for a host that went away)
// resumes its task, and the tab is still the task's, in the same group,
// at the same revision.
func TestServiceWorkerStopLosesNothing(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": suspendPage})
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab, task := handleOf(t, opened), taskOf(t, opened)["id"]
	group := chromeTabByURL(t, e, base+"/").GroupID
	_, before, _ := snap(t, s, tab, nil)
	// What will wake the stopped worker: the watchdog, armed while
	// connected (WATCHDOG_ALARM in host-connection.ts).
	var armed bool
	e.Eval(t, `chrome.alarms.get("agenttab.watchdog").then((a) => a !== undefined)`, &armed)
	if !armed {
		t.Fatal("no watchdog alarm is armed while the worker is connected: nothing would wake a stopped worker")
	}

	oldHost := e.StopServiceWorker(t)

	start := time.Now()
	text, after, _ := snap(t, s, tab, nil)
	t.Logf("the snapshot after the stop answered in %v (the watchdog's wake, a new host, the resume)", time.Since(start).Round(time.Millisecond))
	if pid := e.HostPID(); pid == 0 || pid == oldHost {
		t.Fatalf("host pid after the wake: %d, want a new host (the stopped one was %d)", pid, oldHost)
	}
	if !e.ServiceWorkerRunning() {
		t.Fatal("the snapshot succeeded, yet no service worker runs")
	}
	if after != before {
		t.Errorf("the revision went from %d to %d across the worker's stop of an unchanged page", before, after)
	}
	res := act(t, s, tab, after, step("click", "ref", refOf(t, text, "button", "Press")))
	if steps := stepsOf(res); len(steps) != 1 || steps[0]["outcome"] != string(protocol.OutcomeDispatched) {
		t.Fatalf("the click after the wake: %v", res)
	}
	if text, _, _ := snap(t, s, tab, nil); !strings.Contains(text, "clicked after the wake") {
		t.Fatalf("the page did not see the click:\n%s", text)
	}

	tabs := ok(t, s, protocol.MethodTabs, nil)
	if taskOf(t, tabs)["id"] != task {
		t.Fatalf("after the wake the session works on task %v, want %v (resumed)", taskOf(t, tabs)["id"], task)
	}
	if got := listed(t, tabs); len(got) != 1 || got[0]["tab"] != tab {
		t.Fatalf("after the wake the task lists %v, want only its tab %s", got, tab)
	}
	if g := chromeTabByURL(t, e, base+"/").GroupID; g != group {
		t.Fatalf("the tab is in group %d after the wake, want its task's group %d", g, group)
	}
}
