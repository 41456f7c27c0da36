package e2e

import (
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// hangBound bounds waits that only guard against a hang; nothing here
// asserts how fast anything is.
const hangBound = 30 * time.Second

// Spec 001: "Pause is a barrier, not an optimistic UI toggle." A task's
// navigate step is held in flight by the test's server; the user pauses
// (from the popup, then from `agenttab pause`). While the step is in
// flight the popup, read as the user sees it, says pausing and what it
// waits for, and the host says pausing; once the step commits, with its
// own outcome, the popup says paused. A second call of the task, queued
// behind the step, is refused paused and never reaches the page.
func TestPauseShowsPausingUntilTheStepInFlightSettles(t *testing.T) {
	e := harness.Start(t)
	srv := newHoldingServer()
	base := e.Serve(srv)
	t.Cleanup(srv.stop) // before the server closes: a failed test leaves no request held
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	popup := e.OpenExtensionPage(t, "popup.html")

	for round, from := range []string{"popup", "agenttab pause"} {
		popup.WaitText(t, "Pause agents", 5*time.Second)
		_, rev, _ := snap(t, s, tab, nil)
		acted := harness.CallToolAsync(s, protocol.MethodAct, navigateTo(tab, rev, base+"/slow?round="+strconv.Itoa(round)))
		release := srv.nextHeld(t)
		queued := harness.CallToolAsync(s, protocol.MethodAct, navigateTo(tab, rev, base+"/second"))
		time.Sleep(300 * time.Millisecond) // the second call reaches the host and waits for the task's turn

		var paused <-chan cliRun
		if from == "popup" {
			popup.Click(t, "#pause")
		} else {
			paused = runAsync(agenttabCmd(e, "pause"))
		}
		popup.WaitText(t, "Pausing: no new work starts; waiting for 1 agent request already running to finish.", 10*time.Second)
		if lc := lifecycleOf(t, e); lc != string(protocol.LifecyclePausing) {
			t.Errorf("%s: while the step is in flight the host is %s, want pausing", from, lc)
		}
		select {
		case a := <-acted:
			t.Fatalf("%s: the act ended while its navigation was held: %+v", from, a)
		case r := <-paused: // nil (never ready) on the popup's round
			t.Fatalf("agenttab pause returned while the step was in flight: %v\n%s", r.err, r.out)
		default:
		}

		close(release)
		a := waitAnswer(t, acted, "the held act")
		if steps := stepsOf(a.Result); a.IsError || len(steps) != 1 || steps[0]["outcome"] != string(protocol.OutcomeConfirmed) {
			t.Errorf("%s: the step in flight ended %+v, want its own outcome, confirmed", from, a.Result)
		}
		popup.WaitText(t, "Agents are paused", 10*time.Second)
		if lc := lifecycleOf(t, e); lc != string(protocol.LifecyclePaused) {
			t.Errorf("%s: after the step settled the host is %s, want paused", from, lc)
		}
		q := waitAnswer(t, queued, "the queued act")
		if !q.IsError || q.Result["code"] != string(protocol.CodePaused) || q.Result["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%s: the queued call answered %+v, want paused / not_started", from, q.Result)
		}
		if n := srv.hits("/second"); n != 0 {
			t.Errorf("%s: the queued navigation reached the server %d times", from, n)
		}
		if paused != nil {
			r := <-paused
			if r.err != nil || !strings.Contains(r.out, "paused:") {
				t.Errorf("agenttab pause: %v\n%s", r.err, r.out)
			}
		}
		agenttab(t, e, "resume")
	}
}

// An adoption request waiting for the user's Allow is not dispatched work:
// a Pause, from `agenttab pause` or the popup, ends it at once, paused and
// not started, with the user's tab left as it was. Before, `agenttab
// pause` waited out the request's timeout (60 s here).
func TestPauseEndsAPendingAdoption(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/mine": page("Mine")})
	var userID int
	e.Eval(t, `chrome.tabs.create({url: `+strconv.Quote(base+"/mine")+`, active: true}).then(t => t.id)`, &userID)
	s := e.MCP(t)

	for _, from := range []string{"agenttab pause", "popup"} {
		adopting := harness.CallToolAsync(s, protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": 60_000})
		e.WaitFor(t, "the badge of a pending request", 10*time.Second, func() bool { return badge(t, e) == "1" })
		if from == "popup" {
			popup := e.OpenExtensionPage(t, "popup.html")
			popup.WaitText(t, "asks to work in", 5*time.Second)
			popup.Click(t, "#pause")
			popup.WaitText(t, "Agents are paused", 10*time.Second)
			popup.Close()
		} else {
			// A hang check, well before the adoption's own 60 s timeout.
			select {
			case r := <-runAsync(agenttabCmd(e, "pause")):
				if r.err != nil || !strings.Contains(r.out, "paused:") {
					t.Fatalf("agenttab pause: %v\n%s", r.err, r.out)
				}
			case <-time.After(hangBound):
				t.Fatal("agenttab pause waited for the pending adoption request")
			}
		}
		a := waitAnswer(t, adopting, "the adoption request")
		if !a.IsError || a.Result["code"] != string(protocol.CodePaused) || a.Result["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%s: the pending adoption ended %+v, want paused / not_started", from, a.Result)
		}
		if b := badge(t, e); b != "" {
			t.Errorf("%s: the badge still reads %q", from, b)
		}
		if tab, _ := findTab(e.ChromeTabs(t), userID); tab.GroupID != -1 {
			t.Errorf("%s: the user's tab is in group %d after a cancelled adoption", from, tab.GroupID)
		}
		agenttab(t, e, "resume")
	}
}

func navigateTo(tab string, rev int64, url string) map[string]any {
	return map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("navigate", "url", url)}}
}

func badge(t *testing.T, e *harness.Env) string {
	t.Helper()
	var text string
	e.Eval(t, "chrome.action.getBadgeText({})", &text)
	return text
}

// waitAnswer takes a tool call's answer, failing the test if the call
// failed or never answered (a hang check).
func waitAnswer(t *testing.T, ch <-chan harness.ToolAnswer, what string) harness.ToolAnswer {
	t.Helper()
	select {
	case a := <-ch:
		if a.Err != nil {
			t.Fatalf("%s: %v", what, a.Err)
		}
		return a
	case <-time.After(hangBound):
		t.Fatalf("%s never answered", what)
		return harness.ToolAnswer{}
	}
}

type cliRun struct {
	out string
	err error
}

// runAsync runs cmd; its combined output arrives on the channel.
func runAsync(cmd *exec.Cmd) <-chan cliRun {
	done := make(chan cliRun, 1)
	go func() {
		out, err := cmd.CombinedOutput()
		done <- cliRun{string(out), err}
	}()
	return done
}

// holdingServer serves a page at "/" and any other path, holding every
// request for "/slow" until the test releases it (or stops the server),
// and counts requests by path.
type holdingServer struct {
	mu      sync.Mutex
	count   map[string]int
	held    chan chan struct{}
	stopped chan struct{}
	stop    func()
}

func newHoldingServer() *holdingServer {
	h := &holdingServer{count: map[string]int{}, held: make(chan chan struct{}), stopped: make(chan struct{})}
	h.stop = sync.OnceFunc(func() { close(h.stopped) })
	return h
}

func (h *holdingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.count[r.URL.Path]++
	h.mu.Unlock()
	if r.URL.Path == "/slow" {
		release := make(chan struct{})
		select {
		case h.held <- release:
			select {
			case <-release:
			case <-h.stopped:
			case <-r.Context().Done():
				return
			}
		case <-h.stopped:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(page("At " + r.URL.Path)))
}

// nextHeld waits for the next "/slow" request and returns what releases it.
func (h *holdingServer) nextHeld(t *testing.T) chan struct{} {
	t.Helper()
	select {
	case release := <-h.held:
		return release
	case <-time.After(hangBound):
		t.Fatal("the navigation never reached the server")
		return nil
	}
}

func (h *holdingServer) hits(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.count[path]
}
