package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/host"
	"github.com/agenttab/agenttab/protocol"
)

// The attacks of issue 9, finding 3: one Core client pipelining this many
// requests on one connection, and this many connections held open idle.
const (
	floodRequests   = 20_000
	idleConnections = 200
)

// hangGuard ends a read that would otherwise hang a broken host forever; it
// is not a speed assertion.
const hangGuard = 5 * time.Minute

// peakThreadsOverBase bounds the OS threads the host may add under either
// attack. Go keeps a thread for each goroutine blocked in a system call;
// with a one-writer store pool, few calls block at once. Before the bounds,
// the idle attack alone reached 162–182 threads (docs/benchmarks.md).
const peakThreadsOverBase = 24

// peakRSSOverBase bounds the memory the host may add under either attack
// (before the bounds the flood took it to 1.2–1.6 GB).
const peakRSSOverBase = 128 << 20

// settledRSSOverBase bounds the memory the host may keep once an attack is
// over: Go keeps part of the heap it grew for reuse and returns it to the
// system slowly, so RSS settles a few MB above where it started (about 7 MB
// after the flood, measured). Before the bounds it stayed at 160 MB.
const settledRSSOverBase = 16 << 20

// A client that pipelines 20,000 status requests on one connection is read
// at the host's pace: every request is answered with a result (back-pressure,
// not errors), the host's descriptors and threads stay bounded, and
// afterwards an agent's call works and the host holds what it held before.
func TestCoreFloodOnOneConnection(t *testing.T) {
	e := harness.Start(t)
	s := e.MCP(t)
	ok(t, s, protocol.MethodTabs, nil) // the agent's connection and task exist
	before := timedTabs(t, s)
	base := settledVitals(t, e)
	watch := e.WatchHostVitals(t)

	start := time.Now()
	conn := dialCore(t, e)
	written := make(chan error, 1)
	go func() {
		var buf bytes.Buffer
		for i := 1; i <= floodRequests; i++ {
			fmt.Fprintf(&buf, `{"jsonrpc":"2.0","id":%d,"method":"status","params":{}}`+"\n", i)
		}
		_, err := conn.Write(buf.Bytes())
		written <- err
	}()
	// Midway, the agent makes a call on its own connection.
	midway := make(chan struct{})
	during := make(chan string, 1)
	go func() {
		<-midway
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: protocol.MethodTabs, Arguments: map[string]any{}})
		switch {
		case err != nil:
			during <- "failed: " + err.Error()
		case res.IsError:
			during <- "failed with a tool error"
		default:
			during <- time.Since(start).Round(time.Microsecond).String()
		}
	}()
	answers := map[string]int{}
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(hangGuard))
	for i := range floodRequests {
		if i == floodRequests/4 {
			close(midway)
		}
		line, err := br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %v answers: reading the next: %v", answers, err)
		}
		answers[answerKind(t, line)]++
	}
	if err := <-written; err != nil {
		t.Fatalf("writing the flood: %v", err)
	}
	peak := watch()
	conn.Close()
	t.Logf("flood of %d: answers %v in %s; before %v; peak %v", floodRequests, answers, time.Since(start).Round(time.Millisecond), base, peak)
	if answers["result"] != floodRequests {
		t.Errorf("answers %v, want %d results: a pipelining client must be slowed down, not refused", answers, floodRequests)
	}

	mid := <-during
	if strings.HasPrefix(mid, "failed") {
		t.Errorf("the agent's browser_tabs during the flood %s", mid)
	}
	t.Logf("the agent's browser_tabs took %s before the flood, %s during it, %s after", before, mid, timedTabs(t, s))
	checkBounded(t, base, peak)
	after := waitBaseline(t, e, base)
	t.Logf("flood: after %v", after)
}

// Connections over corerpc.MaxConnections are refused with a JSON-RPC
// error (too_many_connections, not_started) before a byte is read, and
// audited; the agent already connected keeps working while they are held,
// a new agent is told clearly why it cannot connect, and once they close
// the host holds what it held before and the new agent works.
func TestIdleCoreConnectionsAreBounded(t *testing.T) {
	e := harness.Start(t)
	s := e.MCP(t)
	stableHost(t, e)
	ok(t, s, protocol.MethodTabs, nil)
	base := settledVitals(t, e)
	watch := e.WatchHostVitals(t)

	conns := make([]net.Conn, 0, idleConnections)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range idleConnections {
		conns = append(conns, dialCore(t, e))
	}
	// Each connection either answers a status (held) or was refused with
	// its first line, written before the host read anything.
	held, refusedConns := 0, 0
	for i, c := range conns {
		c.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"status","params":{}}` + "\n")) // a refused one may already be closed
		c.SetReadDeadline(time.Now().Add(hangGuard))
		line, err := bufio.NewReader(c).ReadBytes('\n')
		if err != nil {
			t.Fatalf("connection %d: no answer and no refusal: %v", i, err)
		}
		switch kind := answerKind(t, line); kind {
		case "result":
			held++
		case string(protocol.CodeTooManyConnections):
			refusedConns++
			checkConnectionRefusal(t, line)
		default:
			t.Fatalf("connection %d: answered %s: %s", i, kind, line)
		}
	}
	peak := watch()
	t.Logf("%d idle connections: %d held, %d refused; before %v; peak %v", idleConnections, held, refusedConns, base, peak)
	// The agent's own connection holds one place.
	if held+1 != corerpc.MaxConnections || refusedConns != idleConnections-held {
		t.Errorf("%d held and %d refused, want %d held (the bound less the agent's own)", held, refusedConns, corerpc.MaxConnections-1)
	}
	// +1: the connection being refused at the moment of a sample.
	if peak.FDs > base.FDs+held+1 {
		t.Errorf("descriptors peaked at %d with %d connections held, over the %d before", peak.FDs, held, base.FDs)
	}

	t.Logf("the agent's browser_tabs took %s with the connections held", timedTabs(t, s)) // the agent already connected is served
	late := e.MCP(t)
	refused(t, late, protocol.MethodTabs, nil, protocol.CodeTooManyConnections)

	// A client connecting in a loop over the limit: each turn is refused
	// before a byte is read. Before refusals were coalesced each turn added
	// an audit record and a host-log line (docs/benchmarks.md).
	files := func() string {
		return fmt.Sprintf("audit.jsonl %d B, host.log %d B", fileSize(t, e, "audit.jsonl"), fileSize(t, e, "host.log"))
	}
	before := files()
	start := time.Now()
	for range refusedLoopTurns {
		c := dialCore(t, e)
		c.SetReadDeadline(time.Now().Add(hangGuard))
		line, err := bufio.NewReader(c).ReadBytes('\n')
		if err != nil {
			t.Fatalf("a connection over the limit: no refusal: %v", err)
		}
		checkConnectionRefusal(t, line)
		c.Close()
		refusedConns++
	}
	elapsed := time.Since(start).Round(time.Millisecond)

	// Refusals are audited a record a second, each saying how many it
	// stands for; the last record comes when its second is over.
	var audited, records int
	e.WaitFor(t, "the audit to count every refusal", 30*time.Second, func() bool {
		audited, records = 0, 0
		for _, r := range auditRecords(t, e) {
			if r.Method == "event.peer_refused" && r.ErrorCode == protocol.CodeTooManyConnections {
				audited += r.Count
				records++
			}
		}
		return audited >= refusedConns+1
	})
	t.Logf("%d connections refused in a loop in %s: %s before, %s after; %d too_many_connections refusals audited in %d records",
		refusedLoopTurns, elapsed, before, files(), audited, records)

	for _, c := range conns {
		c.Close()
	}
	conns = nil
	checkBounded(t, base, peak)
	after := waitBaseline(t, e, base)
	t.Logf("idle connections: after %v", after)
	ok(t, late, protocol.MethodTabs, nil)
	ok(t, s, protocol.MethodTabs, nil)
}

// A client that connects, makes one browser call (which creates a task),
// and disconnects, connectLoopTurns times: first without confirming the
// task's capability (the task is released as its connection closes), then
// confirming it as agenttab mcp does (the task stays resumable). Before
// the bound the second loop left every task detached and resumable
// (status listed 2,001 tasks) and state.db kept a task and a connection row
// per turn. Now at most host.MaxDetachedTasks stay, the rows of the tasks
// finished early are gone, the host's memory and descriptors come back,
// and a user's detached task that owns a tab, the oldest of all, still
// resumes with its tab in its group.
func TestConnectLoopLeavesNoTasksBehind(t *testing.T) {
	e := harness.Start(t)
	url := e.ServePages(map[string]string{"/": page("Kept")}) + "/"
	s := e.MCP(t)
	ok(t, s, protocol.MethodTabs, nil)

	// A user's agent opens a tab and goes away without browser_finish.
	user := newRawCore(t, e)
	opened := user.call(t, protocol.MethodOpen, map[string]any{"url": url, "mode": "create"})
	userCap := opened.Capability
	user.call(t, protocol.MethodCapabilityConfirm, nil)
	user.Close()
	var res protocol.OpenResult
	json.Unmarshal(opened.Result, &res)

	db := openStateDB(t, e)
	base := settledVitals(t, e)
	t.Logf("before: %v; %s", base, stateCounts(t, e, db))
	for _, confirm := range []bool{false, true} {
		watch := e.WatchHostVitals(t)
		start := time.Now()
		refused := 0
		for range connectLoopTurns {
			c, a := admittedTabs(t, e, &refused)
			if confirm && a.Capability != "" {
				c.call(t, protocol.MethodCapabilityConfirm, nil)
			}
			c.Close()
		}
		peak := watch()
		t.Logf("refused too_many_connections %d times while closed connections were being released", refused)
		settled := waitBaseline(t, e, base)
		t.Logf("%d turns (confirming: %v) in %s; peak %v; after %v; %s",
			connectLoopTurns, confirm, time.Since(start).Round(time.Millisecond), peak, settled, stateCounts(t, e, db))
		checkBounded(t, base, peak)
	}

	var st protocol.StatusResult
	if err := e.CoreCall(context.Background(), protocol.MethodStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	detached := 0
	for _, task := range st.Tasks {
		if !task.Attached {
			detached++
		}
	}
	if detached > host.MaxDetachedTasks {
		t.Errorf("status lists %d detached tasks, over the bound of %d", detached, host.MaxDetachedTasks)
	}
	// The rows left: the tasks status lists, and connections still open.
	// A connection's row goes once the host has run its close, which
	// follows the client's hang-up (the status call's own connection just
	// closed): waited for, bounded as a hang check.
	var taskRows, closedConns int
	e.WaitFor(t, "closed connections' rows to go", 10*time.Second, func() bool {
		db.QueryRow(`SELECT count(*) FROM connections WHERE closed_at IS NOT NULL`).Scan(&closedConns)
		return closedConns == 0
	})
	db.QueryRow(`SELECT count(*) FROM tasks`).Scan(&taskRows)
	if taskRows > len(st.Tasks) {
		t.Errorf("state.db keeps %d task rows (status lists %d tasks)", taskRows, len(st.Tasks))
	}

	back := newRawCore(t, e)
	defer back.Close()
	resumed := back.call(t, protocol.MethodResume, protocol.ResumeParams{Capability: userCap})
	var r protocol.ResumeResult
	json.Unmarshal(resumed.Result, &r)
	if !r.Resumed || r.Task == nil || r.Task.ID != res.Task.ID {
		t.Fatalf("the user's detached task with a tab did not resume: %s", resumed.Result)
	}
	back.call(t, protocol.MethodCapabilityConfirm, nil)
	var tabs protocol.TabsResult
	json.Unmarshal(back.call(t, protocol.MethodTabs, nil).Result, &tabs)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab != res.Tab.Tab {
		t.Fatalf("the user's resumed task lists %+v, want its tab %s", tabs.Tabs, res.Tab.Tab)
	}
	if g, found := groupByID(t, e, chromeTabByURL(t, e, url).GroupID); !found || g.Title != res.Task.Label {
		t.Errorf("the user's tab is not in its task's group any more: %+v", g)
	}
	t.Logf("the agent's browser_tabs took %s after the loops", timedTabs(t, s))
}

// connectLoopTurns is the connect loop of TestConnectLoopLeavesNoTasksBehind,
// refusedLoopTurns the one over the limit of TestIdleCoreConnectionsAreBounded.
const (
	connectLoopTurns = 2000
	refusedLoopTurns = 2000
)

func fileSize(t *testing.T, e *harness.Env, name string) int64 {
	t.Helper()
	fi, err := os.Stat(filepath.Join(e.StateDir, name))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// admittedTabs connects and calls browser_tabs, connecting again after a
// too_many_connections refusal, as its recovery text says. A connection's
// place is given up only once the host has released what it held
// (corerpc.Server.serveConn), which on a loaded machine (fsyncs behind
// other I/O) can lag a client closing 2000 connections in a row; the loop
// then finds 64 still being released (seen in a loaded CI run). Each
// refusal is counted, and the test's bounds still hold the host to what
// it released.
func admittedTabs(t *testing.T, e *harness.Env, refused *int) (*rawCore, coreAnswer) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		c := newRawCore(t, e)
		c.nextID++
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": protocol.MethodTabs, "params": struct{}{}})
		// A refused connection may be closed before the request is
		// written; its refusal is still there to read.
		_, werr := c.Write(append(req, '\n'))
		line, err := c.br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("browser_tabs: reading the answer: %v (writing: %v)", err, werr)
		}
		a := decodeAnswer(t, line)
		if a.Error == nil {
			return c, a
		}
		c.Close()
		if a.Error.Data.Code != protocol.CodeTooManyConnections || time.Now().After(deadline) {
			t.Fatalf("browser_tabs: %s", line)
		}
		*refused++
		time.Sleep(50 * time.Millisecond)
	}
}

// rawCore is a Core connection spoken line by line, as a hostile client
// would.
type rawCore struct {
	net.Conn
	br     *bufio.Reader
	nextID int
}

func newRawCore(t *testing.T, e *harness.Env) *rawCore {
	t.Helper()
	c := dialCore(t, e)
	c.SetDeadline(time.Now().Add(hangGuard))
	return &rawCore{Conn: c, br: bufio.NewReader(c)}
}

// call sends one request and reads its answer, which must be a result.
func (c *rawCore) call(t *testing.T, method string, params any) coreAnswer {
	t.Helper()
	if params == nil {
		params = struct{}{}
	}
	c.nextID++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	if _, err := c.Write(append(req, '\n')); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	line, err := c.br.ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s: reading the answer: %v", method, err)
	}
	a := decodeAnswer(t, line)
	if a.Error != nil {
		t.Fatalf("%s: %s", method, line)
	}
	return a
}

// stateCounts says what state.db holds of tasks and connections and how
// large the host's files are (for docs/benchmarks.md).
func stateCounts(t *testing.T, e *harness.Env, db *sql.DB) string {
	t.Helper()
	var tasks, detached, conns int
	db.QueryRow(`SELECT count(*) FROM tasks`).Scan(&tasks)
	db.QueryRow(`SELECT count(*) FROM tasks WHERE state = 'active' AND connection_id IS NULL`).Scan(&detached)
	db.QueryRow(`SELECT count(*) FROM connections`).Scan(&conns)
	size := func(name string) float64 { return float64(fileSize(t, e, name)) / 1024 }
	return fmt.Sprintf("%d task rows (%d detached), %d connection rows; state.db %.0f KiB + WAL %.0f KiB, audit.jsonl %.0f KiB, host.log %.0f KiB",
		tasks, detached, conns, size("state.db"), size("state.db-wal"), size("audit.jsonl"), size("host.log"))
}

// timedTabs makes the agent's call browser_tabs, which must succeed, and
// says how long it took (for docs/benchmarks.md, never asserted).
func timedTabs(t *testing.T, s *mcp.ClientSession) time.Duration {
	t.Helper()
	start := time.Now()
	ok(t, s, protocol.MethodTabs, nil)
	return time.Since(start).Round(time.Microsecond)
}

func dialCore(t *testing.T, e *harness.Env) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", filepath.Join(e.StateDir, "core.sock"))
	if err != nil {
		t.Fatalf("dialling Core: %v", err)
	}
	return c
}

// coreAnswer is one Core RPC answer line as read off the wire.
type coreAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code int            `json:"code"`
		Data protocol.Error `json:"data"`
	} `json:"error"`
	Capability string `json:"capability"`
}

func decodeAnswer(t *testing.T, line []byte) coreAnswer {
	t.Helper()
	var a coreAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	return a
}

// answerKind is "result" for a result and the error's code for an error.
func answerKind(t *testing.T, line []byte) string {
	t.Helper()
	if a := decodeAnswer(t, line); a.Error != nil {
		return string(a.Error.Data.Code)
	}
	return "result"
}

// checkConnectionRefusal checks the whole refusal: a JSON-RPC error for no
// request (id null) that says nothing ran and how to recover.
func checkConnectionRefusal(t *testing.T, line []byte) {
	t.Helper()
	a := decodeAnswer(t, line)
	if string(a.ID) != "null" || a.Error == nil || a.Error.Code != protocol.RPCToolError ||
		a.Error.Data.Outcome != protocol.OutcomeNotStarted || a.Error.Data.Recovery == "" {
		t.Fatalf("refusal is not a JSON-RPC error with id null, outcome not_started and recovery: %s", line)
	}
}

// settledVitals is the host's Vitals once the connections the harness and
// the agent's adapter opened while starting have closed.
// stableHost waits until the same host has served for two seconds. Seen
// in a loaded clean-clone run: within its first second Chrome ended
// a fresh browser's first host (stdin EOF) and started another, so
// connections held for the attack were held on a host that then went
// away, and a new agent found no host for a moment. The attack is
// measured on the host that stays.
func stableHost(t *testing.T, e *harness.Env) {
	t.Helper()
	pid, since := e.HostPID(), time.Now()
	e.WaitFor(t, "the same host to serve for 2 s", 30*time.Second, func() bool {
		if now := e.HostPID(); now != pid || now == 0 {
			pid, since = now, time.Now()
		}
		return time.Since(since) >= 2*time.Second
	})
}

func settledVitals(t *testing.T, e *harness.Env) harness.Vitals {
	t.Helper()
	var last harness.Vitals
	steady := 0
	e.WaitFor(t, "the host's descriptors to settle", 30*time.Second, func() bool {
		v := e.HostVitals(t)
		if v.FDs == last.FDs {
			steady++
		} else {
			steady = 0
		}
		last = v
		return steady >= 5
	})
	return last
}

func checkBounded(t *testing.T, base, peak harness.Vitals) {
	t.Helper()
	if peak.Threads > base.Threads+peakThreadsOverBase {
		t.Errorf("threads peaked at %d, more than %d over the %d before", peak.Threads, peakThreadsOverBase, base.Threads)
	}
	if peak.RSSBytes > base.RSSBytes+peakRSSOverBase {
		t.Errorf("RSS peaked at %.1f MB, more than %d MB over the %.1f MB before",
			float64(peak.RSSBytes)/(1<<20), peakRSSOverBase>>20, float64(base.RSSBytes)/(1<<20))
	}
	if peak.StateDB > base.StateDB {
		t.Errorf("descriptors on state.db peaked at %d, more than the %d the store holds", peak.StateDB, base.StateDB)
	}
}

// waitBaseline waits until the host holds no more descriptors than before,
// and about the memory it held before.
func waitBaseline(t *testing.T, e *harness.Env, base harness.Vitals) harness.Vitals {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v := e.HostVitals(t)
		if v.FDs <= base.FDs && v.StateDB <= base.StateDB && v.RSSBytes <= base.RSSBytes+settledRSSOverBase {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the host still holds %v, not back to %v", v, base)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
