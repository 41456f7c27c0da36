package mcpserver

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// idemCore is a Core peer with the host's idempotency rules for one task at
// a time: keys must be UUIDv7s; a repeated key with the same arguments
// answers the first result with replay: true, with other arguments
// idempotency_key_conflict. The first browser call makes the task and
// issues a capability; browser_finish ends it (and its records). It
// records every request as sent.
type idemCore struct {
	fakeCore
	mu      sync.Mutex
	made    int               // tasks made so far
	task    int               // the current task; 0: none
	records map[string]record // by key, the current task's
	resumed []string          // capabilities presented to resume
}

type record struct {
	args   string
	result map[string]any
}

func newIdemCore() *idemCore {
	c := &idemCore{records: map[string]record{}}
	c.answer = func(string) (any, error) { return nil, nil } // unused: Handle answers
	return c
}

func (c *idemCore) Handle(ctx context.Context, conn *corerpc.Conn, req *corerpc.Request) (any, error) {
	c.fakeCore.Handle(ctx, conn, req) // records it
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case protocol.MethodHello:
		return protocol.HelloResult{ConnectionID: "conn_test"}, nil
	case protocol.MethodCapabilityConfirm:
		return protocol.CapabilityConfirmResult{Confirmed: true}, nil
	case protocol.MethodResume:
		var p protocol.ResumeParams
		json.Unmarshal(req.Params, &p)
		c.resumed = append(c.resumed, p.Capability)
		return protocol.ResumeResult{Resumed: c.task != 0 && p.Capability == capabilityOf(c.task)}, nil
	}
	var p map[string]any
	json.Unmarshal(req.Params, &p)
	key, _ := p["idempotency_key"].(string)
	delete(p, "idempotency_key")
	args, _ := json.Marshal(p)
	if !protocol.IsUUIDv7(key) {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted, "idempotency_key must be a UUIDv7", "x")
	}
	issued := ""
	if c.task == 0 {
		c.made++
		c.task, c.records = c.made, map[string]record{}
		issued = capabilityOf(c.task)
	}
	var result any
	if rec, ok := c.records[key]; ok {
		if rec.args != string(args) {
			return nil, protocol.NewError(protocol.CodeIdempotencyConflict, protocol.OutcomeNotStarted, "other arguments", "x")
		}
		replayed := map[string]any{"replay": true}
		for k, v := range rec.result {
			replayed[k] = v
		}
		result = replayed
	} else {
		// Each call's answer is its own: an open names a new tab.
		res := map[string]any{"outcome": "confirmed"}
		if req.Method == protocol.MethodOpen {
			res["tab"] = map[string]any{"tab": "tab_" + strconv.Itoa(c.task) + "_" + strconv.Itoa(len(c.records)+1)}
		}
		c.records[key] = record{args: string(args), result: res}
		result = res
	}
	if req.Method == protocol.MethodFinish {
		c.task = 0 // the next browser call makes a new task
	}
	if issued != "" {
		return corerpc.WithCapability{Result: result, Capability: issued}, nil
	}
	return result, nil
}

func tabHandle(openResult map[string]any) any {
	tab, _ := openResult["tab"].(map[string]any)
	return tab["tab"]
}

func capabilityOf(task int) string { return "cap-of-task-" + strconv.Itoa(task) }

// sentKeys lists the idempotency keys of every browser request, in order.
func (c *idemCore) sentKeys(method string) []string {
	c.fakeCore.mu.Lock()
	defer c.fakeCore.mu.Unlock()
	var out []string
	for _, r := range c.requests {
		if r.method == method {
			k, _ := r.params["idempotency_key"].(string)
			out = append(out, k)
		}
	}
	return out
}

// adapterFiles makes the adapter's private directory, as `agenttab mcp`
// has it (STATE/adapters, 0700), and names its capability file there.
func adapterFiles(t *testing.T) (stateDir, capFile string) {
	t.Helper()
	stateDir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(stateDir, "adapters"), 0o700); err != nil {
		t.Fatal(err)
	}
	return stateDir, filepath.Join(stateDir, "adapters", "mcp-stdio-1.capability")
}

// An agent's own key ("retry-1") is sent as one UUIDv7 of the task, every
// time: the retry replays the first result, other arguments under it
// conflict, and a restarted adapter with the same capability file maps it
// the same way. The agent's key is written nowhere under the state
// directory and never sent; the seed file is 0600. A finished task's seed
// goes with it, and the next task maps the same key elsewhere.
func TestAgentKeyReplaysAcrossAdapterRestarts(t *testing.T) {
	socket := socketPath(t)
	core := newIdemCore()
	serveCore(t, socket, core)
	stateDir, capFile := adapterFiles(t)
	const agentKey = "retry-1"
	open := map[string]any{"url": "https://example.com/", "idempotency_key": agentKey}

	first := connect(t, socket, CapabilityFile(capFile))
	res, isErr := callTool(t, first, protocol.MethodOpen, open)
	if isErr || res["replay"] == true {
		t.Fatalf("the first open: %v", res)
	}
	again, isErr := callTool(t, first, protocol.MethodOpen, open)
	if isErr || again["replay"] != true || tabHandle(again) != tabHandle(res) {
		t.Fatalf("the retry: %v, want a replay of %v", again, res)
	}
	other := map[string]any{"url": "https://example.com/other", "idempotency_key": agentKey}
	if conflict, isErr := callTool(t, first, protocol.MethodOpen, other); !isErr || conflict["code"] != string(protocol.CodeIdempotencyConflict) {
		t.Fatalf("the same key with other arguments: %v", conflict)
	}
	first.Close()

	// A restarted adapter resumes the task and maps the key as before.
	restarted := connect(t, socket, CapabilityFile(capFile))
	if after, isErr := callTool(t, restarted, protocol.MethodOpen, open); isErr || after["replay"] != true || tabHandle(after) != tabHandle(res) {
		t.Fatalf("the retry after the adapter restarted: %v, want a replay of %v", after, res)
	}
	if len(core.resumed) != 1 || core.resumed[0] != capabilityOf(1) {
		t.Fatalf("the restarted adapter resumed with %v", core.resumed)
	}
	keys := core.sentKeys(protocol.MethodOpen)
	if len(keys) != 4 {
		t.Fatalf("%d opens sent, want 4", len(keys))
	}
	for _, k := range keys {
		if id, err := uuid.Parse(k); err != nil || id.Version() != 7 || k != keys[0] {
			t.Fatalf("keys sent for %q: %v, want one UUIDv7", agentKey, keys)
		}
	}

	// The seed: owner-only, beside the capability, and the agent's key is
	// nowhere under the state directory, nor in any request.
	if info, err := os.Stat(keysFileFor(capFile)); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key seed file: %v, %v; want mode 0600", info, err)
	}
	filepath.WalkDir(stateDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), agentKey) {
				t.Errorf("%s holds the agent's key", path)
			}
		}
		return nil
	})
	core.fakeCore.mu.Lock()
	for _, r := range core.requests {
		if b, _ := json.Marshal(r.params); strings.Contains(string(b), agentKey) {
			t.Errorf("a %s request carried the agent's key: %s", r.method, b)
		}
	}
	core.fakeCore.mu.Unlock()

	// Finishing ends the task: its seed goes, and the next task maps the
	// same agent key to another UUIDv7 (keys never cross tasks).
	if fin, isErr := callTool(t, restarted, protocol.MethodFinish, nil); isErr {
		t.Fatalf("finish: %v", fin)
	}
	if _, err := os.Stat(keysFileFor(capFile)); !os.IsNotExist(err) {
		t.Errorf("the key seed outlived its task: %v", err)
	}
	callTool(t, restarted, protocol.MethodOpen, open)
	if next := core.sentKeys(protocol.MethodOpen); next[len(next)-1] == keys[0] {
		t.Errorf("the next task got the finished task's UUIDv7 for %q", agentKey)
	}
}

// Keys an agent cannot mean are refused by the adapter, with nothing sent:
// too long, or with control characters. A key of exactly the bound is
// fine; a key that is already a canonical UUIDv7 is sent as it is, one in
// upper case is mapped like any other.
func TestAgentKeyRules(t *testing.T) {
	socket := socketPath(t)
	core := newIdemCore()
	serveCore(t, socket, core)
	cs := connect(t, socket)
	for _, tc := range []struct{ name, key string }{
		{"one byte too long", strings.Repeat("k", maxAgentKey+1)},
		{"a newline", "retry\n1"},
		{"a NUL", "retry\x001"},
		{"an escape", "\x1b[31mred"},
		{"a C1 control", "retry\u00851"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, tool := range []string{protocol.MethodOpen, protocol.MethodAct, protocol.MethodFinish} {
				args := map[string]any{"idempotency_key": tc.key}
				if tool == protocol.MethodAct {
					args = map[string]any{"tab": "tab_1", "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "click", "ref": "e1"}}, "idempotency_key": tc.key}
				}
				res, isErr := callTool(t, cs, tool, args)
				msg, _ := res["message"].(string)
				if !isErr || res["code"] != string(protocol.CodeInvalidParams) || res["outcome"] != string(protocol.OutcomeNotStarted) ||
					!strings.Contains(msg, "idempotency_key") || res["recovery"] == "" {
					t.Errorf("%s: %v, want invalid_params, not_started, naming idempotency_key", tool, res)
				}
			}
		})
	}
	for _, m := range []string{protocol.MethodOpen, protocol.MethodAct, protocol.MethodFinish} {
		if core.last(m) != nil {
			t.Fatalf("a refused key reached the host: %v", core.last(m))
		}
	}
	longest := strings.Repeat("k", maxAgentKey)
	if res, isErr := callTool(t, cs, protocol.MethodOpen, map[string]any{"url": "https://example.com/", "idempotency_key": longest}); isErr {
		t.Fatalf("a key of %d bytes: %v", maxAgentKey, res)
	}
	const v7 = "0190b2a0-0000-7000-8000-0000000000f1"
	callTool(t, cs, protocol.MethodOpen, map[string]any{"url": "https://example.com/", "idempotency_key": v7})
	if sent := core.sentKeys(protocol.MethodOpen); sent[len(sent)-1] != v7 {
		t.Errorf("an agent's UUIDv7 went to the host as %s", sent[len(sent)-1])
	}
	upper := strings.ToUpper(v7)
	callTool(t, cs, protocol.MethodOpen, map[string]any{"url": "https://example.com/", "idempotency_key": upper})
	if sent := core.sentKeys(protocol.MethodOpen); sent[len(sent)-1] == upper || !protocol.IsUUIDv7(sent[len(sent)-1]) {
		t.Errorf("an upper-case UUIDv7 went to the host as %s, want the task's UUIDv7 for it", sent[len(sent)-1])
	}
}

// Over HTTP every MCP session is its own Server, hence its own task and its
// own mapping, in memory (a session cannot outlive the process): two
// sessions' equal keys are two UUIDv7s.
func TestAgentKeysAreEachSessionsOwn(t *testing.T) {
	socket := socketPath(t)
	core := newIdemCore()
	serveCore(t, socket, core)
	args := map[string]any{"url": "https://example.com/", "idempotency_key": "retry-1"}
	callTool(t, connect(t, socket), protocol.MethodOpen, args)
	callTool(t, connect(t, socket), protocol.MethodOpen, args)
	if sent := core.sentKeys(protocol.MethodOpen); len(sent) != 2 || sent[0] == sent[1] {
		t.Fatalf("two sessions sent %v for one agent key", sent)
	}
}

// A seed left without a capability belongs to a task nobody can resume:
// a starting adapter removes it. A seed others could read is refused.
func TestAgentKeySeedFile(t *testing.T) {
	_, capFile := adapterFiles(t)
	seed := keysFileFor(capFile)
	if err := os.WriteFile(seed, []byte(`{"secret":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","unix_ms":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(socketPath(t), "test", CapabilityFile(capFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(seed); !os.IsNotExist(err) {
		t.Errorf("a seed without a capability was kept: %v", err)
	}

	if err := os.WriteFile(capFile, []byte("cap\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(seed, []byte(`{"secret":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","unix_ms":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(socketPath(t), "test", CapabilityFile(capFile)); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Errorf("a seed others can read: %v", err)
	}
	if err := os.WriteFile(seed, []byte(`{"secret":"AAAA","unix_ms":1}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(socketPath(t), "test", CapabilityFile(capFile)); err == nil {
		t.Error("a malformed seed was accepted")
	}
}
