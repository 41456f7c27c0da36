package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// heldFallback releases a held response if the test never does: a hang
// guard that lets a broken build fail on the order it shows, never a speed
// check.
const heldFallback = 8 * time.Second

// held is a handler that answers each request only once release is called
// (or after heldFallback); arrived is closed when the first request comes.
type held struct {
	arrived, released chan struct{}
	once, first       sync.Once
	body              string
}

func newHeld(body string) *held {
	return &held{arrived: make(chan struct{}), released: make(chan struct{}), body: body}
}

func (h *held) release() { h.once.Do(func() { close(h.released) }) }

func (h *held) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.first.Do(func() { close(h.arrived) })
	select {
	case <-h.released:
	case <-time.After(heldFallback):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The pipelining test's page asks from its own origin.
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Write([]byte(h.body))
}

// arrivedIn waits for h's first request, with a hang guard.
func (h *held) arrivedIn(t *testing.T, what string) {
	t.Helper()
	select {
	case <-h.arrived:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never reached the test's server", what)
	}
}

// completions records the order in which concurrent calls finished.
type completions struct {
	mu    sync.Mutex
	order []string
}

func (c *completions) done(what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order = append(c.order, what)
}

func (c *completions) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.order)
}

// counterTask opens task B on a page with a button that counts its clicks,
// and returns its session, tab, revision and the button's ref.
func counterTask(t *testing.T, e *harness.Env) (*mcp.ClientSession, string, int64, string) {
	t.Helper()
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>B</title><button onclick="n.textContent=+n.textContent+1">Count</button><p id="n">0</p>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	return s, tab, rev, refOf(t, text, "button", "Count")
}

// Issue 10: an open into a new window holds back only its own task
// (DESIGN.md "Queues": the global barrier is for Pause, Resume and
// reconciliation). Task A opens a page the server holds into a new window;
// while that open waits for the load, task B snapshots and clicks on its
// own tab, and B's calls complete before A's open. Before the fix the
// extension ran the open behind the global barrier, so B waited for A's
// page (until the server's fallback let it go) and finished after it.
func TestNewWindowOpenHoldsOnlyItsTask(t *testing.T) {
	e := harness.Start(t)
	slow := newHeld(page("Slow page"))
	slowURL := e.Serve(slow) + "/slow"
	t.Cleanup(slow.release)
	b, tabB, rev, count := counterTask(t, e)
	windowsBefore := len(e.ChromeWindows(t))

	a := e.MCP(t)
	var finished completions
	opened := make(chan map[string]any, 1)
	go func() {
		res, isErr := harness.CallTool(t, a, protocol.MethodOpen, map[string]any{"url": slowURL, "placement": "new_window"})
		if isErr {
			t.Errorf("A's open into a new window failed: %v", res)
		}
		finished.done("A's open")
		opened <- res
	}()
	slow.arrivedIn(t, "A's page")

	snap(t, b, tabB, nil)
	act(t, b, tabB, rev, step("click", "ref", count))
	finished.done("B's snapshot and act")
	slow.release()
	res := <-opened
	if got := finished.list(); fmt.Sprint(got) != "[B's snapshot and act A's open]" {
		t.Fatalf("completion order %q: B's work waited for A's open into a new window", got)
	}
	if res["placement"] != "new_window" || len(e.ChromeWindows(t)) != windowsBefore+1 {
		t.Fatalf("A's open %v; windows %d, before %d", res, len(e.ChromeWindows(t)), windowsBefore)
	}
}

// orderPage is task A's page: Add appends the field's value to the log;
// "Released" appears once the test lets the page's request to release go.
func orderPage(release string) string {
	return `<!doctype html><title>Ordered</title>
<label>Value <input id="v"></label>
<button onclick="add()">Add</button>
<p id="go">Held</p>
<p id="log">log:</p>
<script>
function add() { document.getElementById('log').textContent += ' [' + document.getElementById('v').value + ']'; }
fetch('` + release + `').then(() => { document.getElementById('go').textContent = 'Released'; });
</script>`
}

// rawTask is one task over a raw Core connection: what agenttab mcp does
// (open, keep and confirm the capability), then requests written without
// waiting for their answers.
type rawTask struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
}

func newRawTask(t *testing.T, e *harness.Env) *rawTask {
	conn := dialCore(t, e)
	t.Cleanup(func() { conn.Close() })
	return &rawTask{t: t, conn: conn, br: bufio.NewReader(conn)}
}

// send writes requests with ids from, from+1, … in one write.
func (r *rawTask) send(from int, reqs ...map[string]any) {
	r.t.Helper()
	var buf bytes.Buffer
	for i, q := range reqs {
		line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": from + i, "method": q["method"], "params": q["params"]})
		if err != nil {
			r.t.Fatal(err)
		}
		buf.Write(append(line, '\n'))
	}
	if _, err := r.conn.Write(buf.Bytes()); err != nil {
		r.t.Fatalf("writing to Core: %v", err)
	}
}

// next reads one answer (a hang guard, not a speed check).
func (r *rawTask) next() (int, coreAnswer) {
	r.t.Helper()
	r.conn.SetReadDeadline(time.Now().Add(hangGuard))
	line, err := r.br.ReadBytes('\n')
	if err != nil {
		r.t.Fatalf("reading Core: %v", err)
	}
	a := decodeAnswer(r.t, line)
	var id int
	json.Unmarshal(a.ID, &id)
	return id, a
}

// call sends one request and returns its result.
func (r *rawTask) call(id int, method string, params any) json.RawMessage {
	r.t.Helper()
	r.send(id, map[string]any{"method": method, "params": params})
	got, a := r.next()
	if got != id || a.Error != nil {
		r.t.Fatalf("%s: answer to %d: %+v", method, got, a)
	}
	if a.Capability != "" {
		r.send(id+1000, map[string]any{"method": protocol.MethodCapabilityConfirm, "params": map[string]any{}})
		if _, c := r.next(); c.Error != nil {
			r.t.Fatalf("capability_confirm: %+v", c.Error.Data)
		}
	}
	return a.Result
}

func rawRequest(method string, params map[string]any) map[string]any {
	return map[string]any{"method": method, "params": params}
}

// Issue 10, ordering under pipelining: task A writes its requests on its
// Core connection without waiting for answers. Its first act holds the
// task (a wait step for text the test releases later); a browser_wait for
// the last value follows, then ten acts, each filling the field with its
// index and clicking Add, with a snapshot after the fifth and after the
// tenth. Meanwhile task B's snapshot and click complete. Then: the page's
// log is [0]…[9] in order, each snapshot saw exactly the acts sent before
// it, and the browser_wait (a read that gives up the task's order once it
// starts) was satisfied by acts sent after it.
func TestPipelinedCoreRequestsKeepTheirOrder(t *testing.T) {
	e := harness.Start(t)
	release := newHeld("")
	base := e.ServePages(map[string]string{"/": orderPage(e.Serve(release) + "/release")})
	t.Cleanup(release.release)
	b, tabB, revB, count := counterTask(t, e)

	a := newRawTask(t, e)
	var opened protocol.OpenResult
	json.Unmarshal(a.call(1, protocol.MethodOpen, map[string]any{"url": base + "/", "mode": "create"}), &opened)
	tab, rev := opened.Tab.Tab, opened.Tab.PageRevision
	var first protocol.SnapshotResult
	json.Unmarshal(a.call(2, protocol.MethodSnapshot, map[string]any{"tab": tab}), &first)
	field, add := refOf(t, first.Text, "textbox", "Value"), refOf(t, first.Text, "button", "Add")
	release.arrivedIn(t, "A's page's held request")

	actOn := func(steps ...map[string]any) map[string]any {
		return rawRequest(protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": steps})
	}
	const (
		holdID = 10
		waitID = 11
	)
	pipeline := []map[string]any{
		actOn(step("wait", "wait", map[string]any{"until": "text", "text": "Released", "timeout_ms": protocol.MaxWaitMs})),
		rawRequest(protocol.MethodWait, map[string]any{"tab": tab, "condition": map[string]any{"until": "text", "text": "[9]", "timeout_ms": protocol.MaxWaitMs}}),
	}
	snapshotAfter := map[int]int{} // request id → acts sent before it
	for i := range 10 {
		pipeline = append(pipeline, actOn(step("fill", "ref", field, "text", fmt.Sprint(i)), step("click", "ref", add)))
		if i == 4 || i == 9 {
			snapshotAfter[holdID+len(pipeline)] = i + 1
			pipeline = append(pipeline, rawRequest(protocol.MethodSnapshot, map[string]any{"tab": tab, "mode": "full"}))
		}
	}

	var finished completions
	answers := map[int]coreAnswer{}
	read := make(chan struct{})
	go func() {
		defer close(read)
		for range pipeline {
			id, ans := a.next()
			answers[id] = ans
			finished.done(fmt.Sprint("A ", id))
		}
	}()
	a.send(holdID, pipeline...)

	act(t, b, tabB, revB, step("click", "ref", count))
	snap(t, b, tabB, nil)
	finished.done("B")
	release.release()
	<-read

	if got := finished.list(); slices.Index(got, "B") > slices.Index(got, fmt.Sprint("A ", holdID)) {
		t.Errorf("completion order %q: task B waited for task A's held act", got)
	}
	for id := holdID; id < holdID+len(pipeline); id++ {
		if ans := answers[id]; ans.Error != nil {
			t.Errorf("request %d: %+v", id, ans.Error.Data)
		}
	}
	var waited protocol.WaitResult
	json.Unmarshal(answers[waitID].Result, &waited)
	if !waited.Satisfied {
		t.Errorf("the browser_wait sent before the acts was not satisfied by them: %s", answers[waitID].Result)
	}
	want := "log:"
	for i := range 10 {
		want += fmt.Sprintf(" [%d]", i)
	}
	for id, n := range snapshotAfter {
		var s protocol.SnapshotResult
		json.Unmarshal(answers[id].Result, &s)
		seen := "log:"
		for i := range n {
			seen += fmt.Sprintf(" [%d]", i)
		}
		if !strings.Contains(s.Text, seen) || (n < 10 && strings.Contains(s.Text, fmt.Sprintf("[%d]", n))) {
			t.Errorf("the snapshot after %d acts does not show exactly %q:\n%s", n, seen, s.Text)
		}
	}
	var final protocol.SnapshotResult
	json.Unmarshal(a.call(100, protocol.MethodSnapshot, map[string]any{"tab": tab, "mode": "full"}), &final)
	if !strings.Contains(final.Text, want) {
		t.Fatalf("the page's log is not %q:\n%s", want, final.Text)
	}
}
