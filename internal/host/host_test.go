package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

const testExtID = "abcdefghijklmnopabcdefghijklmnop"

// rig is a real host in-process with a fake extension on its native pipe
// (testing tier 2 of DESIGN.md).
type rig struct {
	t      *testing.T
	dir    statedir.Dir
	ext    *fakeExtension
	stdin  *io.PipeWriter
	done   chan error
	cancel context.CancelFunc
	once   sync.Once
}

type rigOption func(*rigConfig)

type rigConfig struct {
	dir       statedir.Dir
	noHello   bool
	helloVer  int
	waitReady bool
	paused    bool
	inspect   func(*Host)
	now       func() time.Time
	fake      func(*fakeExtension)
}

// withFake prepares the fake extension before its hello (a browser whose
// tabs and switches outlived a host).
func withFake(prepare func(*fakeExtension)) rigOption { return func(c *rigConfig) { c.fake = prepare } }

func withDir(d statedir.Dir) rigOption { return func(c *rigConfig) { c.dir = d } }
func withoutHello() rigOption          { return func(c *rigConfig) { c.noHello, c.waitReady = true, false } }
func withHelloVersion(v int) rigOption {
	return func(c *rigConfig) { c.helloVer, c.waitReady = v, false }
}

// withClock gives the host a clock of the test's.
func withClock(now func() time.Time) rigOption { return func(c *rigConfig) { c.now = now } }

// withHost hands the test the running Host, to read what it holds.
func withHost(h **Host) rigOption { return func(c *rigConfig) { c.inspect = func(x *Host) { *h = x } } }

func expectingExit() rigOption { return func(c *rigConfig) { c.waitReady = false } }

// withExtensionPaused: the extension restored a Pause before its hello.
func withExtensionPaused() rigOption { return func(c *rigConfig) { c.paused = true } }

func tempStateDir(t *testing.T) statedir.Dir {
	// /tmp keeps the socket path under the ~108-byte sun_path limit.
	d, err := os.MkdirTemp("/tmp", "agenttab-host-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	os.Chmod(d, 0o700)
	return statedir.Dir(d)
}

func startRig(t *testing.T, opts ...rigOption) *rig {
	t.Helper()
	cfg := rigConfig{helloVer: protocol.Version, waitReady: true}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.dir == "" {
		cfg.dir = tempStateDir(t)
	}
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	ext := newWireFake(t, stdoutR, stdinW)
	ext.paused = cfg.paused
	if cfg.fake != nil {
		cfg.fake(ext)
	}
	ready := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	r := &rig{t: t, dir: cfg.dir, ext: ext, stdin: stdinW, done: make(chan error, 1), cancel: cancel}
	go func() {
		err := Run(ctx, Options{Dir: cfg.dir, ExtensionOrigin: "chrome-extension://" + testExtID + "/", Stdin: stdinR, Stdout: stdoutW, Version: "test", Ready: ready, inspect: cfg.inspect, Now: cfg.now})
		stdoutW.Close()
		stdinR.Close() // a host that exited early reads nothing more
		r.done <- err
	}()
	go ext.serve()
	if !cfg.noHello {
		ext.hello(cfg.helloVer, testExtID)
	}
	t.Cleanup(r.stop)
	if cfg.waitReady {
		select {
		case <-ready:
		case err := <-r.done:
			t.Fatalf("host exited before ready: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("host not ready in 10 s")
		}
	}
	return r
}

// stop closes the host's stdin, as Chrome does when the port disconnects.
func (r *rig) stop() {
	r.once.Do(func() {
		r.stdin.Close()
		select {
		case <-r.done:
		case <-time.After(5 * time.Second):
			r.cancel()
			<-r.done
		}
	})
}

// exitErr waits for the host to exit and returns its error.
func (r *rig) exitErr() error {
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(10 * time.Second):
		r.t.Fatal("host did not exit")
		return nil
	}
}

func (r *rig) client() *corerpc.Client {
	r.t.Helper()
	return r.clientKeeping(func(string) error { return nil })
}

// clientKeeping dials a client whose issued capabilities go to keep.
func (r *rig) clientKeeping(keep func(string) error) *corerpc.Client {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := corerpc.DialClient(context.Background(), r.dir.Socket(), keep)
		if err == nil {
			r.t.Cleanup(func() { c.Close() })
			return c
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("dial: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func rpc[T any](t *testing.T, c *corerpc.Client, method string, params any) T {
	t.Helper()
	var out T
	if err := c.Call(context.Background(), method, params, &out); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return out
}

func callErr(t *testing.T, c *corerpc.Client, method string, params any) *protocol.Error {
	t.Helper()
	err := c.Call(context.Background(), method, params, nil)
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		t.Fatalf("%s: got %v, want a protocol error", method, err)
	}
	return pe
}

func count(methods []string, m string) int {
	n := 0
	for _, x := range methods {
		if x == m {
			n++
		}
	}
	return n
}

func TestOpenListFinishAcrossTasks(t *testing.T) {
	r := startRig(t)
	a, b := r.client(), r.client()

	opened := rpc[protocol.OpenResult](t, a, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/x", Mode: "create"})
	if !strings.HasPrefix(opened.Tab.Tab, "tab_") || opened.Outcome != protocol.OutcomeConfirmed || opened.Placement != protocol.PlacementTab {
		t.Fatalf("unexpected open result %+v", opened)
	}
	listA := rpc[protocol.TabsResult](t, a, protocol.MethodTabs, nil)
	if len(listA.Tabs) != 1 || listA.Tabs[0].Tab != opened.Tab.Tab || listA.Task.ID != opened.Task.ID {
		t.Fatalf("task A lists %+v", listA)
	}
	listB := rpc[protocol.TabsResult](t, b, protocol.MethodTabs, nil)
	if len(listB.Tabs) != 0 || listB.Task.ID == listA.Task.ID {
		t.Fatalf("task B sees %+v (task A is %s)", listB, listA.Task.ID)
	}
	if e := callErr(t, b, protocol.MethodTabs, protocol.TabsParams{Tab: opened.Tab.Tab}); e.Code != protocol.CodeNotOwned {
		t.Fatalf("B naming A's tab: %v", e)
	}

	fin := rpc[protocol.FinishResult](t, a, protocol.MethodFinish, protocol.FinishParams{CloseTabs: true})
	if fin.Released != 1 || fin.Closed != 1 || fin.Task.ID != listA.Task.ID {
		t.Fatalf("finish %+v", fin)
	}
	after := rpc[protocol.TabsResult](t, a, protocol.MethodTabs, nil)
	if after.Task.ID == listA.Task.ID || len(after.Tabs) != 0 {
		t.Fatalf("after finish, the connection should have a new empty task: %+v", after)
	}
}

func TestCallerSuppliedIdentityIsRefused(t *testing.T) {
	r := startRig(t)
	a := r.client()
	opened := rpc[protocol.OpenResult](t, a, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	b := r.client()
	// A task id in the params is not a field of any method: it is refused,
	// never used to select A's task.
	e := callErr(t, b, protocol.MethodTabs, map[string]any{"task_id": opened.Task.ID})
	if e.Code != protocol.CodeInvalidParams {
		t.Fatalf("got %v", e)
	}
	rpc[protocol.HelloResult](t, b, protocol.MethodHello, protocol.HelloParams{ConversationID: opened.Task.ID})
	if got := rpc[protocol.TabsResult](t, b, protocol.MethodTabs, nil); got.Task.ID == opened.Task.ID || len(got.Tabs) != 0 {
		t.Fatalf("conversation_id selected another task: %+v", got)
	}
}

func TestBrowserWorkRefusedUntilReady(t *testing.T) {
	r := startRig(t, withoutHello())
	c := r.client()
	// The socket is served from the start; the host moves from starting
	// to handshaking a moment later, and stays there without a hello.
	deadline := time.Now().Add(5 * time.Second)
	for st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil); st.Lifecycle != protocol.LifecycleHandshaking; st = rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil) {
		if st.Lifecycle != protocol.LifecycleStarting || time.Now().After(deadline) {
			t.Fatalf("lifecycle %s, want handshaking", st.Lifecycle)
		}
		time.Sleep(5 * time.Millisecond)
	}
	e := callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	if e.Code != protocol.CodeHostUnavailable || e.Lifecycle != protocol.LifecycleHandshaking || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
		t.Fatalf("got %+v", e)
	}
	if st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil); len(st.Tasks) != 0 {
		t.Fatalf("a refused request created a task: %+v", st.Tasks)
	}
	if seen := r.ext.seen(); len(seen) != 0 {
		t.Fatalf("the extension was asked %v before the handshake", seen)
	}
}

func TestRevokedTabIsNotOwned(t *testing.T) {
	r := startRig(t)
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	var chromeID int
	for id := range r.ext.tabs {
		chromeID = id
	}
	r.ext.userCloses(chromeID)
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := c.Call(context.Background(), protocol.MethodTabs, protocol.TabsParams{Tab: opened.Tab.Tab}, nil)
		var pe *protocol.Error
		if errors.As(err, &pe) && pe.Code == protocol.CodeNotOwned {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("revoked tab still answers: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil); len(got.Tabs) != 0 {
		t.Fatalf("revoked tab still listed: %+v", got)
	}
}

func TestNewWindowOnlyForAnEmptyTask(t *testing.T) {
	r := startRig(t)
	c := r.client()
	first := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create", Placement: "new_window"})
	if first.Placement != protocol.PlacementNewWindow {
		t.Fatalf("placement %s", first.Placement)
	}
	e := callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/2", Mode: "create", Placement: "new_window"})
	if e.Code != protocol.CodeNewWindowNotEligible || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("got %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeOpen); n != 1 {
		t.Fatalf("the extension was asked to open %d times, want 1", n)
	}
}

func TestGroupFailureOwnsNothing(t *testing.T) {
	r := startRig(t)
	c := r.client()
	r.ext.mu.Lock()
	r.ext.failGroup = true
	r.ext.mu.Unlock()
	if e := callErr(t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"}); e.Code != protocol.CodeGroupFailed {
		t.Fatalf("got %+v", e)
	}
	if got := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil); len(got.Tabs) != 0 {
		t.Fatalf("a failed open left ownership: %+v", got)
	}
}

func TestIdempotencyKeys(t *testing.T) {
	r := startRig(t)
	c := r.client()
	p := protocol.OpenParams{URL: "https://example.com/", Mode: "create", IdempotencyKey: "0190b2a0-0000-7000-8000-000000000001"}
	first := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, p)
	again := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, p)
	if !again.Replay || again.Tab.Tab != first.Tab.Tab {
		t.Fatalf("repeat with the same key: %+v, first %+v", again, first)
	}
	if n := count(r.ext.seen(), protocol.NativeOpen); n != 1 {
		t.Fatalf("opened %d times, want 1", n)
	}
	p.URL = "https://example.com/other"
	if e := callErr(t, c, protocol.MethodOpen, p); e.Code != protocol.CodeIdempotencyConflict || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("same key, other args: %+v", e)
	}
	if n := count(r.ext.seen(), protocol.NativeOpen); n != 1 {
		t.Fatalf("a conflicting key reached the extension")
	}
}

func TestBadInputChangesNothing(t *testing.T) {
	r := startRig(t)
	c := r.client()
	for _, tc := range []struct {
		name   string
		method string
		params any
		want   protocol.ErrorCode
	}{
		{"unknown method", "browser_hack", nil, protocol.CodeUnknownMethod},
		{"url wrong type", protocol.MethodOpen, map[string]any{"url": 5, "mode": "create"}, protocol.CodeInvalidParams},
		{"unknown field", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "create", "tab_id": 3}, protocol.CodeInvalidParams},
		{"missing url", protocol.MethodOpen, map[string]any{"mode": "create"}, protocol.CodeInvalidURL},
		{"javascript url", protocol.MethodOpen, map[string]any{"url": "javascript:alert(1)", "mode": "create"}, protocol.CodeInvalidURL},
		{"data url", protocol.MethodOpen, map[string]any{"url": "data:text/html,hi", "mode": "create"}, protocol.CodeInvalidURL},
		{"relative url", protocol.MethodOpen, map[string]any{"url": "/x", "mode": "create"}, protocol.CodeInvalidURL},
		{"local file", protocol.MethodOpen, map[string]any{"url": "file:///etc/passwd", "mode": "create"}, protocol.CodeLocalFileDenied},
		{"view-source of a local file", protocol.MethodOpen, map[string]any{"url": "view-source:file:///etc/passwd", "mode": "create"}, protocol.CodeLocalFileDenied},
		{"huge url", protocol.MethodOpen, map[string]any{"url": "https://a.test/" + strings.Repeat("a", protocol.MaxURLBytes), "mode": "create"}, protocol.CodeInvalidURL},
		{"bad mode", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "adopt_everything"}, protocol.CodeInvalidParams},
		{"bad placement", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "create", "placement": "front"}, protocol.CodeInvalidParams},
		{"timeout with create", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "create", "timeout_ms": 100}, protocol.CodeInvalidParams},
		{"adopt with a url", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "adopt_active"}, protocol.CodeInvalidParams},
		{"adopt with a placement", protocol.MethodOpen, map[string]any{"mode": "adopt_active", "placement": "new_window"}, protocol.CodeInvalidParams},
		{"adopt with a negative timeout", protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": -1}, protocol.CodeInvalidParams},
		{"adopt with a huge timeout", protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": 10_000_000}, protocol.CodeInvalidParams},
		{"pause with params", protocol.MethodPause, map[string]any{"all": true}, protocol.CodeInvalidParams},
		{"unpause with params", protocol.MethodUnpause, map[string]any{"now": 1}, protocol.CodeInvalidParams},
		{"close_tabs wrong type", protocol.MethodFinish, map[string]any{"close_tabs": "yes"}, protocol.CodeInvalidParams},
		{"tab wrong type", protocol.MethodTabs, map[string]any{"tab": 7}, protocol.CodeInvalidParams},
		{"long idempotency key", protocol.MethodOpen, map[string]any{"url": "https://a.test/", "mode": "create", "idempotency_key": strings.Repeat("k", 200)}, protocol.CodeInvalidParams},
		{"hello too long", protocol.MethodHello, map[string]any{"client_name": strings.Repeat("n", 300)}, protocol.CodeInvalidParams},
		{"status with params", protocol.MethodStatus, map[string]any{"all": true}, protocol.CodeInvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := callErr(t, c, tc.method, tc.params)
			if e.Code != tc.want || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
				t.Fatalf("got %+v, want code %s, not_started, with recovery", e, tc.want)
			}
		})
	}
	if n := count(r.ext.seen(), protocol.NativeOpen) + count(r.ext.seen(), protocol.NativeFinish); n != 0 {
		t.Fatalf("bad input reached the extension: %v", r.ext.seen())
	}
	st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil)
	for _, task := range st.Tasks {
		if task.OwnedTabs != 0 {
			t.Fatalf("bad input changed ownership: %+v", st.Tasks)
		}
	}
}

func TestAuditHasEveryCallAndNoRawValues(t *testing.T) {
	r := startRig(t)
	c := r.client()
	const canaryPath, canaryQuery = "/canary-path-5f1d", "canary-query-9e2a"
	url := "https://canary.example:8443" + canaryPath + "?q=" + canaryQuery
	rpc[protocol.HelloResult](t, c, protocol.MethodHello, protocol.HelloParams{ClientName: "canary-client-name"})
	rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: url, Mode: "create"})
	rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil) // the result carries the fake's title, which contains the URL
	callErr(t, c, protocol.MethodOpen, map[string]any{"url": "javascript:canary-js", "mode": "create"})
	rpc[protocol.FinishResult](t, c, protocol.MethodFinish, nil)

	data, err := os.ReadFile(r.dir.Audit())
	if err != nil {
		t.Fatal(err)
	}
	for _, canary := range []string{canaryPath, canaryQuery, "canary-client-name", "canary-js", "Title of"} {
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("audit contains the raw value %q", canary)
		}
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	// The open made the task, so the client confirmed its capability next.
	if len(lines) != 6 {
		t.Fatalf("%d audit records, want one per request (6):\n%s", len(lines), data)
	}
	var open map[string]any
	if err := json.Unmarshal(lines[1], &open); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"ts", "ts_end", "connection_id", "task_id", "request_id", "method", "outcome", "duration_ms", "replay", "target_origins", "args_summary", "args_digest", "result_summary"} {
		if _, ok := open[field]; !ok {
			t.Errorf("audit record lacks %q: %s", field, lines[1])
		}
	}
	if got := open["target_origins"]; !strings.Contains(toJSON(got), "https://canary.example:8443") {
		t.Errorf("target origins %v lack the origin", got)
	}
	var refused map[string]any
	json.Unmarshal(lines[4], &refused)
	if refused["error_code"] != string(protocol.CodeInvalidURL) || refused["recovery"] == "" {
		t.Errorf("refused call audited as %s", lines[4])
	}
	if fi, _ := os.Stat(r.dir.Audit()); fi.Mode().Perm() != 0o600 {
		t.Errorf("audit mode %o", fi.Mode().Perm())
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSecondHostRefusesToStart(t *testing.T) {
	r := startRig(t)
	err := Run(context.Background(), Options{Dir: r.dir, ExtensionOrigin: "chrome-extension://" + testExtID + "/", Stdin: strings.NewReader(""), Stdout: io.Discard, Version: "test"})
	var running *statedir.HostRunningError
	if !errors.As(err, &running) || running.PID != os.Getpid() {
		t.Fatalf("second host: got %v, want HostRunningError naming pid %d", err, os.Getpid())
	}
}

func TestInvalidPolicyRefusesToStart(t *testing.T) {
	for _, tc := range []struct {
		name, policy, want string
		mode               os.FileMode
	}{
		{"unknown key", `{"audit":{"enabled":true,"colour":1}}`, "audit.colour", 0o600},
		{"wrong type", `{"developer_mode":{"enabled":"yes"}}`, "developer_mode.enabled", 0o600},
		{"writable by others", `{}`, "others write", 0o622},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempStateDir(t)
			if err := os.WriteFile(dir.Policy(), []byte(tc.policy), 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chmod(dir.Policy(), tc.mode)
			r := startRig(t, withDir(dir), expectingExit())
			err := r.exitErr()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a refusal naming %q", err, tc.want)
			}
			if _, serr := os.Stat(dir.Socket()); serr == nil {
				t.Fatal("a refused host left a socket")
			}
		})
	}
}

func TestHandshakeVersionMismatchRejects(t *testing.T) {
	r := startRig(t, withHelloVersion(protocol.Version+1))
	err := r.exitErr()
	if err == nil || !strings.Contains(err.Error(), string(protocol.CodeVersionMismatch)) {
		t.Fatalf("got %v", err)
	}
}

func TestAuditDisabledByPolicy(t *testing.T) {
	dir := tempStateDir(t)
	os.WriteFile(dir.Policy(), []byte(`{"audit":{"enabled":false}}`), 0o600)
	r := startRig(t, withDir(dir))
	rpc[protocol.TabsResult](t, r.client(), protocol.MethodTabs, nil)
	if _, err := os.Stat(filepath.Join(string(dir), "audit.jsonl")); err == nil {
		t.Fatal("audit written while disabled by policy")
	}
}

func TestReconcileRevokesWhatChromeLost(t *testing.T) {
	dir := tempStateDir(t)
	r1 := startRig(t, withDir(dir))
	c := r1.client()
	rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	c.Close()
	r1.stop()

	// A new browser session: the fake Chrome has no tabs.
	r2 := startRig(t, withDir(dir))
	st := rpc[protocol.StatusResult](t, r2.client(), protocol.MethodStatus, nil)
	if len(st.Tasks) != 1 || st.Tasks[0].OwnedTabs != 0 || st.Tasks[0].Attached {
		t.Fatalf("after reconcile: %+v", st.Tasks)
	}
	if count(r2.ext.seen(), protocol.NativeReconcile) != 1 {
		t.Fatalf("no reconcile: %v", r2.ext.seen())
	}
}

func TestForeignPeerIsAudited(t *testing.T) {
	// corerpc refuses a foreign peer before reading (corerpc tests); the
	// host records the refusal as a security event.
	r := startRig(t)
	h := &Host{log: log.New(io.Discard, "", 0), now: time.Now}
	h.refusals.emit = h.writeRefusal
	var err error
	if h.audit, err = audit.Open(filepath.Join(string(r.dir), "peer-audit.jsonl"), true); err != nil {
		t.Fatal(err)
	}
	h.Refused(corerpc.Cred{UID: 4321, PID: 99}, "peer runs as uid 4321, the host as uid 0")
	h.audit.Close()
	data, err := os.ReadFile(filepath.Join(string(r.dir), "peer-audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	if rec["kind"] != "event" || rec["method"] != "event.peer_refused" || rec["error_code"] != string(protocol.CodePeerRefused) {
		t.Fatalf("peer refusal audited as %s", data)
	}
}

func TestExitsOnStdinEOF(t *testing.T) {
	r := startRig(t)
	r.stdin.Close()
	if err := r.exitErr(); err != nil {
		t.Fatalf("exit on EOF: %v", err)
	}
	if _, err := os.Stat(r.dir.Socket()); err == nil {
		t.Fatal("the socket outlived the host")
	}
}

// rigClient wraps a Core client for the page tests.
type rigClient struct{ *corerpc.Client }
