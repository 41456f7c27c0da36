package mcpserver

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fakeCore is a hand-written Core RPC peer: it records what the adapter
// sent and answers from a table.
type fakeCore struct {
	mu       sync.Mutex
	requests []recorded
	answer   func(method string) (any, error)
	// developer is the hello's developer_mode (developer_test.go).
	developer bool
}

type recorded struct {
	method string
	params map[string]any
}

func (f *fakeCore) Opened(*corerpc.Conn)                                     {}
func (f *fakeCore) Closed(*corerpc.Conn)                                     {}
func (f *fakeCore) Refused(corerpc.Cred, string)                             {}
func (f *fakeCore) RefusedOverLimit(corerpc.Cred, *protocol.Error)           {}
func (f *fakeCore) Rejected(*corerpc.Conn, json.RawMessage, *protocol.Error) {}
func (f *fakeCore) Handle(_ context.Context, _ *corerpc.Conn, req *corerpc.Request) (any, error) {
	var p map[string]any
	json.Unmarshal(req.Params, &p)
	f.mu.Lock()
	f.requests = append(f.requests, recorded{req.Method, p})
	answer := f.answer
	f.mu.Unlock()
	if req.Method == protocol.MethodHello {
		return protocol.HelloResult{ConnectionID: "conn_test", DeveloperMode: f.developer}, nil
	}
	return answer(req.Method)
}

func (f *fakeCore) last(method string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.requests) - 1; i >= 0; i-- {
		if f.requests[i].method == method {
			return f.requests[i].params
		}
	}
	return nil
}

// serveCore starts a fake Core server on socket; the returned func stops it.
func serveCore(t *testing.T, socket string, f corerpc.Handler) func() {
	t.Helper()
	l, err := corerpc.Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		corerpc.NewServer(f, corerpc.SelfUID(), log.New(io.Discard, "", 0)).Serve(ctx, l)
		close(done)
	}()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

func connect(t *testing.T, socket string, opts ...Option) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	srv, err := New(socket, "test", opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close(); srv.core.close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func socketPath(t *testing.T) string {
	d, err := os.MkdirTemp("/tmp", "mcpserver")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o700)
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "core.sock")
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var out map[string]any
	json.Unmarshal(raw, &out)
	checkOutput(t, cs, name, out)
	return out, res.IsError
}

// The tool list is a wire contract with every agent: a golden file shows
// any change to names, descriptions, schemas or annotations in review.
func TestToolListGolden(t *testing.T) {
	cs := connect(t, socketPath(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(map[string]any{"instructions": cs.InitializeResult().Instructions, "tools": tools.Tools}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tools.golden.json", got)
}

// checkGolden compares got with testdata/name, which -update rewrites.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/mcpserver -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
		t.Fatalf("%s changed (-golden +got); if intended, run go test ./internal/mcpserver -update:\n%s", name, diff)
	}
}

func TestHostUnreachableThenConnects(t *testing.T) {
	socket := socketPath(t)
	cs := connect(t, socket)
	res, isErr := callTool(t, cs, protocol.MethodTabs, nil)
	if !isErr || res["code"] != string(protocol.CodeHostUnavailable) || res["outcome"] != string(protocol.OutcomeNotStarted) || res["recovery"] == "" {
		t.Fatalf("without a host: %v (isError %v)", res, isErr)
	}
	core := &fakeCore{answer: func(string) (any, error) { return protocol.TabsResult{Tabs: []protocol.TabInfo{}}, nil }}
	stop := serveCore(t, socket, core)
	if res, isErr := callTool(t, cs, protocol.MethodTabs, nil); isErr {
		t.Fatalf("after the host appeared: %v", res)
	}
	// The host goes away and comes back: the adapter dials again.
	stop()
	if res, isErr := callTool(t, cs, protocol.MethodTabs, nil); !isErr || res["code"] != string(protocol.CodeHostUnavailable) {
		t.Fatalf("after the host stopped: %v", res)
	}
	serveCore(t, socket, core)
	if res, isErr := callTool(t, cs, protocol.MethodTabs, nil); isErr {
		t.Fatalf("after the host restarted: %v", res)
	}
}

func TestMutationsCarryIdempotencyKeys(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) { return map[string]any{"outcome": "confirmed"}, nil }}
	serveCore(t, socket, core)
	cs := connect(t, socket)

	callTool(t, cs, protocol.MethodOpen, map[string]any{"url": "https://example.com/"})
	open := core.last(protocol.MethodOpen)
	if open["mode"] != "create" {
		t.Fatalf("mode not defaulted: %v", open)
	}
	key, _ := open["idempotency_key"].(string)
	if id, err := uuid.Parse(key); err != nil || id.Version() != 7 {
		t.Fatalf("browser_open key %q is not a UUIDv7", key)
	}
	callTool(t, cs, protocol.MethodFinish, map[string]any{"idempotency_key": "agent-chosen"})
	got, _ := core.last(protocol.MethodFinish)["idempotency_key"].(string)
	if id, err := uuid.Parse(got); err != nil || id.Version() != 7 {
		t.Fatalf("the agent's key was sent as %q, want a UUIDv7 for it (agentkeys.go)", got)
	}
	callTool(t, cs, protocol.MethodOpen, map[string]any{"url": "https://example.com/"})
	if again := core.last(protocol.MethodOpen)["idempotency_key"]; again == key {
		t.Fatal("two calls got the same generated key")
	}
	// browser_commit and browser_handoff map the agent's keys as browser_act does.
	callTool(t, cs, protocol.MethodCommit, map[string]any{"stage": "stg_1", "idempotency_key": "agent-commit"})
	callTool(t, cs, protocol.MethodHandoff, map[string]any{"action": "request", "tab": "tab_1", "reason": "captcha", "idempotency_key": "agent-handoff"})
	for _, m := range []string{protocol.MethodCommit, protocol.MethodHandoff} {
		got, _ := core.last(m)["idempotency_key"].(string)
		if id, err := uuid.Parse(got); err != nil || id.Version() != 7 {
			t.Errorf("%s sent the agent's key as %q, want a UUIDv7 for it", m, got)
		}
	}
}

func TestCoreFailureBecomesToolError(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) {
		return nil, protocol.NewError(protocol.CodeNotOwned, protocol.OutcomeNotStarted, "not yours", "Call browser_tabs.")
	}}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	res, isErr := callTool(t, cs, protocol.MethodTabs, map[string]any{"tab": "tab_1"})
	want := map[string]any{"code": "not_owned", "message": "not yours", "recovery": "Call browser_tabs.", "outcome": "not_started"}
	if !isErr || !cmp.Equal(res, want) {
		t.Fatalf("got %v (isError %v), want %v", res, isErr, want)
	}
}

// A host on its way to ready (Chrome just restarted it) is waited for, and
// the refused call sent once more; a paused host is reported at once.
func TestWaitsForAStartingHost(t *testing.T) {
	socket := socketPath(t)
	var mu sync.Mutex
	lifecycle := protocol.LifecycleReconciling
	core := &fakeCore{answer: func(method string) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		if method == protocol.MethodStatus {
			next := lifecycle
			lifecycle = protocol.LifecycleReady // ready on the second look
			return protocol.StatusResult{Lifecycle: next}, nil
		}
		if lifecycle != protocol.LifecycleReady {
			e := protocol.NewError(protocol.CodeHostUnavailable, protocol.OutcomeNotStarted, "not ready", "wait")
			e.Lifecycle = lifecycle
			return nil, e
		}
		return protocol.TabsResult{Tabs: []protocol.TabInfo{}}, nil
	}}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	if res, isErr := callTool(t, cs, protocol.MethodTabs, nil); isErr {
		t.Fatalf("the call was not retried once the host was ready: %v", res)
	}

	core.mu.Lock()
	core.answer = func(method string) (any, error) {
		e := protocol.NewError(protocol.CodePaused, protocol.OutcomeNotStarted, "paused", "wait for the user")
		e.Lifecycle = protocol.LifecyclePaused
		return nil, e
	}
	core.mu.Unlock()
	if res, isErr := callTool(t, cs, protocol.MethodTabs, nil); !isErr || res["code"] != string(protocol.CodePaused) {
		t.Fatalf("a paused host: %v", res)
	}
}
