package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/adapterbuild"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// The adapters' TypeScript client (adapters/core) mirrors this package's
// tool handlers and Core connection. This test keeps the two honest: for a
// table of tool calls it runs agenttab mcp's server and the TypeScript
// client (bundled with esbuild, run by node), each against its own fake
// Core answering the same, with the same key seed, and compares the Core
// requests each sent and the tool results each produced. A change on
// either side that the other lacks fails here.

// confCase is one call and what the fake Core answers to its methods.
type confCase struct {
	name    string
	tool    string
	args    map[string]any
	answers map[string]any // method → result, or *protocol.Error
	// starting: the host refuses once as reconciling, then says ready.
	starting bool
	// newSeed: the task's key seed is new (random), so a mapped key is
	// compared by its form only.
	newSeed bool
	// ended: the task is over after this call; its capability and seed are gone.
	ended bool
	// restart: the Core restarts before the call (the adapter's connection
	// ends before the request goes out): dial, hello, resume, send once.
	restart bool
	// away: the Core is gone when the call starts and comes back this much
	// later; the adapter waits for it (host_return.go).
	away time.Duration
	// resume is what the Core answers to resume (default: resumed).
	resume any
	// kept is the capability both sides keep from this case on (rotation).
	kept string
}

// confSeed is the fixed key seed both sides load (agentkeys.go).
var confSeed = keySeed{Secret: []byte("0123456789abcdef0123456789abcdef"), UnixMs: 1_700_000_000_000}

// confSession is the agent session the TypeScript client runs for: its
// private files are bound to it.
const confSession = "conf-session-1"

const confUUIDv7 = "01890a5d-ac96-774b-bcce-b302099a8057"

func confCases() []confCase {
	task := protocol.TaskRef{ID: "task_1", Label: "Task 1"}
	tab := protocol.TabInfo{Tab: "tab_1", URL: "https://example.com/a?b=<c>&d", Title: "Tom & Jerry", AutomationRoute: protocol.RouteFull, PageRevision: 7}
	nullTab := tab
	nullTab.Title = "a null title" // "null" in the text: Go re-encodes through a map (sorted keys)
	open := protocol.OpenResult{Task: task, Tab: tab, Placement: protocol.PlacementTab, Outcome: protocol.OutcomeConfirmed}
	snap := protocol.SnapshotResult{
		Tab: "tab_1", URL: tab.URL, Title: "T <b>", PageRevision: 7, RefEpoch: 2, Mode: protocol.SnapshotInteractive,
		Coverage: protocol.Coverage{Start: 0, End: 40, Total: 40}, Status: protocol.SnapshotComplete,
		Text: "- button \"Send\" [ref=e1]\n- link \"Home\" [ref=e2]", Outcome: protocol.OutcomeObserved,
		Dialog:     &protocol.DialogInfo{Type: "confirm", Message: "Sure?\n\"yes\"\u00a0é\x01"},
		Screenshot: &protocol.BlobRef{Path: "/s/1.png", URI: "agenttab://blob/1", MimeType: "image/png", Bytes: 3},
	}
	act := protocol.ActResult{Tab: "tab_1", PageRevision: 8, URL: tab.URL, Title: "T", Outcome: protocol.OutcomeConfirmed,
		Steps: []protocol.StepReceipt{{Index: 0, Kind: "fill", Outcome: protocol.OutcomeConfirmed}, {Index: 1, Kind: "click", Outcome: protocol.OutcomeConfirmed, Navigation: protocol.NavigationCommitted}}}
	withSnap := act
	s := snap
	withSnap.Snapshot = &s
	failed := act
	failed.Outcome = protocol.OutcomeNotStarted
	failed.Error = protocol.Fail(protocol.CodeStaleRef, "e9 is gone")
	notOwned := protocol.Fail(protocol.CodeNotOwned, "tab_9 is not this task's")
	notFound := false
	scriptSnap := snap
	scriptSnap.Screenshot = nil
	scriptSnap.ServedBy = protocol.RouteScripting
	scriptSnap.Status = protocol.SnapshotTruncated
	scriptSnap.TruncatedReason = "max_chars reached: call again with start 40"
	scriptSnap.Found = &notFound
	scriptSnap.OriginStops = []protocol.OriginStop{{URL: "https://refused.example/x?y", Reason: "denied by policy"}}
	starting := protocol.NewError(protocol.CodeHostUnavailable, protocol.OutcomeNotStarted, "reconciling", "wait")
	starting.Lifecycle = protocol.LifecycleReconciling
	type item struct { // a struct, as the host encodes items: Go's adapter re-sorts them
		Kind  string `json:"kind"`
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	return []confCase{
		{name: "open unkeyed (capability issued)", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/"}, answers: map[string]any{protocol.MethodOpen: open}},
		{name: "open keyed", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/", "idempotency_key": "open-1", "placement": "tab", "timeout_ms": 0}, answers: map[string]any{protocol.MethodOpen: protocol.OpenResult{Task: task, Tab: nullTab, Outcome: protocol.OutcomeConfirmed, Replay: true}}},
		{name: "open with a UUIDv7 key", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/", "idempotency_key": confUUIDv7, "mode": "create"}, answers: map[string]any{protocol.MethodOpen: open}},
		{name: "tabs", tool: protocol.MethodTabs, args: nil, answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{tab}, Outcome: protocol.OutcomeObserved}}},
		{name: "tabs failing", tool: protocol.MethodTabs, args: map[string]any{"tab": "tab_9"}, answers: map[string]any{protocol.MethodTabs: notOwned}},
		{name: "tabs while the host starts", tool: protocol.MethodTabs, starting: true, answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}}},
		{name: "snapshot with an inline screenshot", tool: protocol.MethodSnapshot, args: map[string]any{"tab": "tab_1", "screenshot": "viewport", "inline_image": true, "start": 0, "max_chars": 0},
			answers: map[string]any{protocol.MethodSnapshot: snap, protocol.MethodBlobRead: protocol.BlobReadResult{MimeType: "image/png", Base64: base64.StdEncoding.EncodeToString([]byte{1, 2, 3})}}},
		{name: "act keyed with snapshot_after and a wait step", tool: protocol.MethodAct, args: map[string]any{"tab": "tab_1", "expected_page_revision": 7, "idempotency_key": "act-1", "snapshot_after": true,
			"actions": []any{map[string]any{"kind": "fill", "ref": "e1", "text": "hi", "delta_x": 0}, map[string]any{"kind": "wait", "wait": map[string]any{"until": "text", "text": "ok", "gone": false, "timeout_ms": 100}}, map[string]any{"kind": "dialog", "accept": false}}},
			answers: map[string]any{protocol.MethodAct: withSnap}},
		{name: "act whose batch failed", tool: protocol.MethodAct, args: map[string]any{"tab": "tab_1", "expected_page_revision": 7, "actions": []any{map[string]any{"kind": "click", "ref": "e9"}}}, answers: map[string]any{protocol.MethodAct: failed}},
		{name: "act with a bad step kind", tool: protocol.MethodAct, args: map[string]any{"tab": "tab_1", "expected_page_revision": 7, "actions": []any{map[string]any{"kind": "click", "ref": "e1"}, map[string]any{"kind": "teleport"}}}},
		{name: "act with no steps", tool: protocol.MethodAct, args: map[string]any{"tab": "tab_1", "expected_page_revision": 7, "actions": []any{}}},
		{name: "act missing its tab", tool: protocol.MethodAct, args: map[string]any{"expected_page_revision": 7, "actions": []any{map[string]any{"kind": "reload"}}}},
		{name: "open with a wrong type", tool: protocol.MethodOpen, args: map[string]any{"url": 5}},
		{name: "open with an unknown field", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/", "colour": "red"}},
		{name: "open with a key too long", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/", "idempotency_key": string(make([]byte, 200))}},
		{name: "wait", tool: protocol.MethodWait, args: map[string]any{"tab": "tab_1", "until": "text", "text": "Done", "timeout_ms": 100},
			answers: map[string]any{protocol.MethodWait: protocol.WaitResult{Tab: "tab_1", Until: protocol.WaitText, Satisfied: true, ElapsedMs: 12, URL: tab.URL, Title: "t", PageRevision: 7}}},
		{name: "commit whose step failed", tool: protocol.MethodCommit, args: map[string]any{"stage": "stage_1"},
			answers: map[string]any{protocol.MethodCommit: protocol.CommitResult{Stage: "stage_1", Effect: protocol.EffectSend, Tab: "tab_1", Step: protocol.StepReceipt{Kind: "click", Outcome: protocol.OutcomeNotStarted}, Outcome: protocol.OutcomeNotStarted, Error: protocol.Fail(protocol.CodeTargetCovered, "covered")}}},
		{name: "handoff status", tool: protocol.MethodHandoff, args: map[string]any{"action": "status"},
			answers: map[string]any{protocol.MethodHandoff: protocol.HandoffResult{Action: protocol.HandoffStatus, Notices: []protocol.Notice{{NoticeID: "notice_1", Tab: "tab_1", Reason: "captcha"}}, UserIdleState: protocol.IdleActive, Outcome: protocol.OutcomeObserved}}},
		{name: "handoff request keyed", tool: protocol.MethodHandoff, args: map[string]any{"action": "request", "tab": "tab_1", "reason": "login", "message": "Sign in", "expires_in_s": 120, "idempotency_key": "h-1"},
			answers: map[string]any{protocol.MethodHandoff: protocol.Fail(protocol.CodeHandoffInProgress, "the user is on it")}},
		{name: "credentials prepare", tool: protocol.MethodCredentials, args: map[string]any{"action": "prepare", "tab": "tab_1"},
			answers: map[string]any{protocol.MethodCredentials: protocol.CredentialsResult{Action: protocol.CredentialPrepare, Candidates: 2, Candidate: 1, Attempt: 1, MaxAttempts: 3, HasUsername: true, HasPassword: true}}},
		{name: "credentials fill keyed", tool: protocol.MethodCredentials, args: map[string]any{"action": "fill", "token": "tok", "ref": "e3", "field": "password", "idempotency_key": "c-1"},
			answers: map[string]any{protocol.MethodCredentials: protocol.Fail(protocol.CodeCredentialTokenInvalid, "the token was used")}},
		{name: "profile read", tool: protocol.MethodProfile, args: map[string]any{"op": "history_search", "query": "q", "max_results": 3, "start_time_ms": 0},
			answers: map[string]any{protocol.MethodProfile: protocol.ProfileResult{Op: protocol.ProfileHistorySearch, Items: []any{item{Kind: "history", ID: "1", Title: "x & y"}}, Truncated: true, Outcome: protocol.OutcomeObserved}}},
		{name: "profile write unkeyed", tool: protocol.MethodProfile, args: map[string]any{"op": "bookmarks_update", "id": "7", "title": "t"},
			answers: map[string]any{protocol.MethodProfile: protocol.ProfileResult{Op: protocol.ProfileBookmarksUpdate, IDs: []string{"7"}, Outcome: protocol.OutcomeConfirmed}}},
		{name: "profile write keyed", tool: protocol.MethodProfile, args: map[string]any{"op": "bookmarks_move", "id": "7", "parent_id": "2", "index": 0, "idempotency_key": "p-1"},
			answers: map[string]any{protocol.MethodProfile: protocol.ProfileResult{Op: protocol.ProfileBookmarksMove, IDs: []string{"7"}, Outcome: protocol.OutcomeConfirmed}}},
		{name: "profile read with a key", tool: protocol.MethodProfile, args: map[string]any{"op": "bookmarks_tree", "idempotency_key": "r-1"},
			answers: map[string]any{protocol.MethodProfile: protocol.Fail(protocol.CodeInvalidParams, "bookmarks_tree takes no idempotency_key")}},
		{name: "developer evaluate", tool: protocol.MethodDeveloper, args: map[string]any{"tab": "tab_1", "action": "cdp", "method": "DOM.getDocument", "params": map[string]any{"depth": 1, "a": map[string]any{"z": 1, "b": 2}}},
			answers: map[string]any{protocol.MethodDeveloper: protocol.DeveloperResult{Tab: "tab_1", Result: item{Kind: "k", ID: "i", Title: "t"}, Outcome: protocol.OutcomeDispatched}}},
		{name: "snapshot served by scripting, truncated, with an origin stop, find not found and a dialog", tool: protocol.MethodSnapshot, args: map[string]any{"tab": "tab_1", "find": "needle"},
			answers: map[string]any{protocol.MethodSnapshot: scriptSnap}},
		{name: "a request over the line bound is refused unsent", tool: protocol.MethodAct, args: map[string]any{"tab": "tab_1", "expected_page_revision": 7,
			"actions": []any{map[string]any{"kind": "type", "ref": "e1", "text": strings.Repeat("x", corerpc.MaxLine)}}}},
		{name: "the connection closed before the call: dialled again, resumed, sent once", tool: protocol.MethodTabs, restart: true,
			answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{tab}, Outcome: protocol.OutcomeObserved}}},
		{name: "the host went away and comes back: the call waits for it and resumes", tool: protocol.MethodTabs, away: 600 * time.Millisecond,
			answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{tab}, Outcome: protocol.OutcomeObserved}}},
		{name: "resume rotates the capability: kept, confirmed, then the call", tool: protocol.MethodTabs, restart: true, kept: "cap-rotated",
			resume:  corerpc.WithCapability{Result: protocol.ResumeResult{Resumed: true}, Capability: "cap-rotated"},
			answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}}},
		{name: "finish keyed (drops the task)", tool: protocol.MethodFinish, args: map[string]any{"close_tabs": true, "idempotency_key": "f-1"},
			answers: map[string]any{protocol.MethodFinish: protocol.FinishResult{Task: task, Released: 1, Closed: 1, Outcome: protocol.OutcomeConfirmed}}, ended: true},
		{name: "a key after finish maps afresh", tool: protocol.MethodOpen, args: map[string]any{"url": "https://example.com/", "idempotency_key": "open-1"}, answers: map[string]any{protocol.MethodOpen: open}, newSeed: true, kept: "cap-issued"},
		{name: "resumed false: a new task, the capability and seed dropped", tool: protocol.MethodTabs, restart: true, resume: protocol.ResumeResult{Resumed: false}, ended: true,
			answers: map[string]any{protocol.MethodTabs: protocol.TabsResult{Task: task, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}}},
	}
}

// confCore is the fake Core: the current case's answers, a capability
// issued on the first browser_open, and every request recorded.
type confCore struct {
	mu       sync.Mutex
	requests []recorded
	c        confCase
	refused  bool
	issued   bool
}

func (f *confCore) Opened(*corerpc.Conn)                                     {}
func (f *confCore) Closed(*corerpc.Conn)                                     {}
func (f *confCore) Refused(corerpc.Cred, string)                             {}
func (f *confCore) RefusedOverLimit(corerpc.Cred, *protocol.Error)           {}
func (f *confCore) Rejected(*corerpc.Conn, json.RawMessage, *protocol.Error) {}
func (f *confCore) Handle(_ context.Context, _ *corerpc.Conn, req *corerpc.Request) (any, error) {
	var p map[string]any
	json.Unmarshal(req.Params, &p)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, recorded{req.Method, p})
	switch req.Method {
	case protocol.MethodHello:
		return protocol.HelloResult{ConnectionID: "conn_test", DeveloperMode: true}, nil
	case protocol.MethodResume:
		if f.c.resume != nil {
			return f.c.resume, nil
		}
		return protocol.ResumeResult{Resumed: true}, nil
	case protocol.MethodCapabilityConfirm:
		return protocol.CapabilityConfirmResult{Confirmed: true}, nil
	case protocol.MethodStatus:
		return protocol.StatusResult{Lifecycle: protocol.LifecycleReady}, nil
	}
	if f.c.starting && !f.refused {
		f.refused = true
		e := protocol.NewError(protocol.CodeHostUnavailable, protocol.OutcomeNotStarted, "reconciling", "wait")
		e.Lifecycle = protocol.LifecycleReconciling
		return nil, e
	}
	a, ok := f.c.answers[req.Method]
	if !ok {
		return nil, fmt.Errorf("the conformance table has no answer to %s", req.Method)
	}
	if e, ok := a.(*protocol.Error); ok {
		return nil, e
	}
	if req.Method == protocol.MethodOpen && !f.issued {
		f.issued = true
		return corerpc.WithCapability{Result: a, Capability: "cap-issued"}, nil
	}
	if req.Method == protocol.MethodFinish {
		f.issued = false // the next task's first open gets one again
	}
	return a, nil
}

func (f *confCore) start(c confCase) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.c, f.refused, f.requests = c, false, nil
}

// sent is what the adapter sent for one case, hello aside (its client
// name is each adapter's own). A fresh key (the case gave none) is
// random on both sides, so only its form is compared.
func (f *confCore) sent(t *testing.T, c confCase) []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []recorded
	for _, r := range f.requests {
		if r.method == protocol.MethodHello {
			continue
		}
		if k, ok := r.params["idempotency_key"].(string); ok && (c.args["idempotency_key"] == nil || c.newSeed) {
			if !protocol.IsUUIDv7(k) {
				t.Errorf("%s: a fresh key %q is no UUIDv7", c.name, k)
			}
			r.params["idempotency_key"] = "<fresh UUIDv7>"
		}
		out = append(out, r)
	}
	return out
}

// confState makes a state directory holding an adapter's kept capability
// and the fixed key seed, at capPath.
func confState(t *testing.T, capPath string) {
	t.Helper()
	if err := writeDurably(capPath, []byte("cap-initial\n")); err != nil {
		t.Fatal(err)
	}
	seed, _ := json.Marshal(confSeed)
	if err := writeDurably(keysFileFor(capPath), append(seed, '\n')); err != nil {
		t.Fatal(err)
	}
}

// confResult is a tool result in one shape for both sides.
type confResult struct {
	IsError           bool           `json:"isError"`
	Content           []any          `json:"content"`
	StructuredContent map[string]any `json:"structuredContent"`
}

func goConfResult(t *testing.T, r *mcp.CallToolResult) confResult {
	t.Helper()
	var out confResult
	out.IsError = r.IsError
	raw, err := json.Marshal(r.Content)
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(raw, &out.Content)
	raw, _ = json.Marshal(r.StructuredContent)
	json.Unmarshal(raw, &out.StructuredContent)
	return out
}

func TestCoreClientConformance(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is required (scripts/deps.sh installs it)")
	}
	cases := confCases()

	// The Go adapter: agenttab mcp's server with a capability file.
	goState := filepath.Dir(socketPath(t))
	goCore := &confCore{}
	goServe := confServer(t, filepath.Join(goState, "core.sock"), goCore)
	goCap := filepath.Join(goState, "adapters", "mcp.capability")
	confState(t, goCap)
	cs := connect(t, filepath.Join(goState, "core.sock"), CapabilityFile(goCap))

	// The TypeScript client, in node, on its own state directory.
	tsState := filepath.Dir(socketPath(t))
	tsCore := &confCore{}
	tsServe := confServer(t, filepath.Join(tsState, "core.sock"), tsCore)
	tsCap := adapterbuild.DriverCapability(tsState, confSession)
	confState(t, tsCap)
	driver := adapterbuild.StartDriver(t, adapterbuild.DriverEntry, tsState, confSession)

	kept := "cap-issued"
	for _, c := range cases {
		if c.kept != "" {
			kept = c.kept
		}
		goCore.start(c)
		goServe.before(c)
		var res *mcp.CallToolResult
		var err error
		goServe.during(c, func() {
			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		})
		if err != nil {
			t.Fatalf("%s: go: %v", c.name, err)
		}
		goRes := goConfResult(t, res)

		tsCore.start(c)
		tsServe.before(c)
		line, _ := json.Marshal(map[string]any{"tool": c.tool, "args": c.args})
		var out []byte
		tsServe.during(c, func() {
			out, err = driver.Ask(line)
		})
		if err != nil {
			t.Fatalf("%s: the TypeScript client answered nothing: %v", c.name, err)
		}
		var tsRes confResult
		if err := json.Unmarshal(out, &tsRes); err != nil {
			t.Fatalf("%s: %v: %s", c.name, err, out)
		}
		if diff := cmp.Diff(goRes, tsRes); diff != "" {
			t.Errorf("%s: tool results differ (-go +ts):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(goCore.sent(t, c), tsCore.sent(t, c), cmp.AllowUnexported(recorded{})); diff != "" {
			t.Errorf("%s: Core requests differ (-go +ts):\n%s", c.name, diff)
		}
		checkKept(t, c, kept, goCap, tsCap)
	}
}

// confCoreServer is one side's fake Core, which a case may restart or
// take away for a while.
type confCoreServer struct {
	t      *testing.T
	socket string
	core   *confCore
	stop   func()
}

func confServer(t *testing.T, socket string, core *confCore) *confCoreServer {
	return &confCoreServer{t: t, socket: socket, core: core, stop: serveCore(t, socket, core)}
}

// before restarts the Core for a restart case (ending the adapter's
// connection) and gives the adapter a moment to see its connection end.
func (s *confCoreServer) before(c confCase) {
	if !c.restart {
		return
	}
	s.stop()
	s.stop = serveCore(s.t, s.socket, s.core)
	time.Sleep(200 * time.Millisecond)
}

// during runs call; for an away case the Core is gone when it starts and
// comes back c.away later, while call waits.
func (s *confCoreServer) during(c confCase, call func()) {
	if c.away == 0 {
		call()
		return
	}
	s.stop()
	time.Sleep(100 * time.Millisecond) // the adapter sees its connection end
	done := make(chan struct{})
	go func() { defer close(done); call() }()
	time.Sleep(c.away)
	s.stop = serveCore(s.t, s.socket, s.core)
	<-done
}

// checkKept: both sides keep the issued capability (never the old one)
// while the task lasts, and drop it and the seed once it ended.
func checkKept(t *testing.T, c confCase, kept string, caps ...string) {
	t.Helper()
	for _, p := range caps {
		b, err := os.ReadFile(p)
		switch {
		case c.ended:
			for _, f := range []string{p, keysFileFor(p)} {
				if _, err := os.Stat(f); !os.IsNotExist(err) {
					t.Errorf("%s: %s is still there (%v)", c.name, f, err)
				}
			}
		case c.newSeed:
		case err != nil || string(b) != kept+"\n":
			t.Errorf("%s: %s holds %q (%v)", c.name, p, b, err)
		default:
			if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s has mode %v", c.name, p, info.Mode().Perm())
			}
		}
	}
}
