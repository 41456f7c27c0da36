package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/mcpserver"
	"github.com/agenttab/agenttab/protocol"
)

// A line on `agenttab mcp`'s stdin that is not a JSON-RPC request gets the
// JSON-RPC 2.0 error for it, and the adapter keeps serving: every bad line
// is followed by a tool call through the host that must work, and at the
// end a browser_open goes through Chromium. Before issue 9 the first such
// line ended the process (rc 1) and every later call failed. When stdin
// closes the adapter exits cleanly and removes its lock file.
func TestStdioAdapterAnswersBadLinesAndKeepsServing(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("After the bad lines")})
	a := startRawAdapter(t, e)
	a.initialize(t, "2025-11-25")

	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepParams := `{"jsonrpc":"2.0","id":"deep","method":"tools/list","params":{"x":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`
	for _, tc := range []struct {
		name string
		line string
		code int64
		id   any // the id the error answers: nil for JSON null
	}{
		{"plain text", "hello, is this thing on?", jsonrpc.CodeParseError, nil},
		{"truncated JSON", `{"jsonrpc":"2.0","id":5,"method":"tools/li`, jsonrpc.CodeParseError, nil},
		{"two values on one line", `{"jsonrpc":"2.0","id":5,"method":"ping"} {}`, jsonrpc.CodeParseError, nil},
		{"an array of numbers (a batch, not supported since 2025-06-18)", `[1,2,3]`, jsonrpc.CodeInvalidRequest, nil},
		{"an empty array", `[]`, jsonrpc.CodeInvalidRequest, nil},
		{"a number", `42`, jsonrpc.CodeInvalidRequest, nil},
		{"a string", `"tools/list"`, jsonrpc.CodeInvalidRequest, nil},
		{"null", `null`, jsonrpc.CodeInvalidRequest, nil},
		{"an empty object", `{}`, jsonrpc.CodeInvalidRequest, nil},
		{"a wrong version", `{"jsonrpc":"1.0","id":6,"method":"ping"}`, jsonrpc.CodeInvalidRequest, float64(6)},
		{"an id that is an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"a method that is a number", `{"jsonrpc":"2.0","id":7,"method":12}`, jsonrpc.CodeInvalidRequest, float64(7)},
		{"100000 nested arrays", deep, jsonrpc.CodeParseError, nil},
		{"2000 nested arrays inside params", deepParams, jsonrpc.CodeInvalidRequest, "deep"},
		{"invalid UTF-8 alone", "\xff\xfe\xfd", jsonrpc.CodeParseError, nil},
		{"invalid UTF-8 inside a string", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"x":"` + "\xc3\x28" + `"}}`, jsonrpc.CodeParseError, nil},
		{"NUL bytes", "\x00\x00\x00", jsonrpc.CodeParseError, nil},
		{"a NUL after a request", `{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\x00", jsonrpc.CodeParseError, nil},
		{"a line over the adapter's limit", `{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":"` + strings.Repeat("a", mcpserver.MaxMessage) + `"}}`, jsonrpc.CodeParseError, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.send(t, tc.line)
			got := a.next(t)
			if got.Error == nil {
				t.Fatalf("no error for %s: %+v", tc.name, got)
			}
			if got.Error.Code != tc.code {
				t.Errorf("error code %d, want %d (%s)", got.Error.Code, tc.code, got.Error.Message)
			}
			if !got.hasID {
				t.Errorf("the error has no id member (JSON-RPC 2.0 §5 requires one, null when unknown)")
			}
			if fmt.Sprint(got.ID) != fmt.Sprint(tc.id) {
				t.Errorf("error id %v, want %v", got.ID, tc.id)
			}
			// The adapter still serves, and still reaches the host.
			res := a.callTool(t, protocol.MethodTabs, map[string]any{})
			if res.IsError {
				t.Fatalf("browser_tabs after %s failed: %+v", tc.name, res)
			}
		})
	}

	res := a.callTool(t, protocol.MethodOpen, map[string]any{"url": base + "/"})
	if res.IsError {
		t.Fatalf("browser_open after the bad lines failed: %+v", res)
	}
	chromeTabByURL(t, e, base+"/")
	if code := a.close(t); code != 0 {
		t.Errorf("agenttab mcp exited with %d after its stdin closed, want 0", code)
	}
	// Its claim on its capability file ended with it, lock file and all.
	if locks, _ := filepath.Glob(filepath.Join(e.StateDir, "adapters", "*.lock")); len(locks) > 0 {
		t.Errorf("lock files left behind: %v", locks)
	}
}

// fillCounter serves a page with one text field that reports every input
// event's value length to the server: the page's own record of what
// reached it.
type fillCounter struct {
	mu      sync.Mutex
	lengths []int
}

const fillCounterPage = `<!doctype html><title>Fill counter</title>
<label>Name <input id="name" oninput="fetch('/input?len=' + this.value.length)"></label>`

func (f *fillCounter) serve(e *harness.Env) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, fillCounterPage) })
	mux.HandleFunc("/input", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("len"))
		f.mu.Lock()
		f.lengths = append(f.lengths, n)
		f.mu.Unlock()
	})
	return e.Serve(mux)
}

func (f *fillCounter) seen() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.lengths...)
}

// oversizeFill checks a fill whose Core request would exceed corerpc.MaxLine
// on session s: refused by the adapter before anything is sent
// (invalid_params naming the limit, not_started), the field untouched, and
// the next fill works on the same Core connection.
func oversizeFill(t *testing.T, e *harness.Env, s *mcp.ClientSession) {
	t.Helper()
	counter := &fillCounter{}
	base := counter.serve(e)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	ref := refOf(t, text, "textbox", "Name")

	huge := strings.Repeat("x", 5_000_000)
	res := refused(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev,
		"actions": []any{step("fill", "ref", ref, "text", huge)}}, protocol.CodeInvalidParams)
	if res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Errorf("outcome %v, want not_started: %v", res["outcome"], res["code"])
	}
	if msg, _ := res["message"].(string); !strings.Contains(msg, strconv.Itoa(corerpc.MaxLine)) {
		t.Errorf("the refusal does not name the limit (%d bytes): %q", corerpc.MaxLine, msg)
	}

	act(t, s, tab, rev, step("fill", "ref", ref, "text", "ok"))
	e.WaitFor(t, "the page to report the small fill", 10*time.Second, func() bool {
		seen := counter.seen()
		return len(seen) > 0 && seen[len(seen)-1] == 2
	})
	for _, n := range counter.seen() {
		if n != 2 {
			t.Errorf("the page saw an input of %d characters; only the 2-character fill may reach it", n)
		}
	}
	// One Core connection served the open, the snapshot and both fills,
	// and the host never saw the oversize line.
	task := taskOf(t, ok(t, s, protocol.MethodTabs, nil))["id"]
	conns := map[string]bool{}
	for _, r := range auditRecords(t, e) {
		if r.ErrorCode == protocol.CodeMessageTooBig {
			t.Errorf("the host refused an oversize line: %+v", r)
		}
		if r.TaskID == task {
			conns[r.ConnectionID] = true
		}
	}
	if len(conns) != 1 {
		t.Errorf("the task's requests came on %d Core connections, want 1: %v", len(conns), conns)
	}
}

// A request whose Core message would exceed the host's limit was sent, the
// host closed the connection, and the agent was told host_unavailable with
// outcome unknown. It is now refused by the adapter before sending.
func TestOversizeRequestRefusedByTheStdioAdapter(t *testing.T) {
	e := harness.Start(t)
	oversizeFill(t, e, e.MCP(t))
}

// The same over Streamable HTTP, where the SDK's default body limit (4
// MiB) answered 413 before the tool saw the request.
func TestOversizeRequestRefusedByTheHTTPAdapter(t *testing.T) {
	e := harness.Start(t)
	url := startHTTPMCP(t, e)
	oversizeFill(t, e, httpSession(t, url, httpBearer(t, e)))
}

// A bad body POSTed to `agenttab mcp --http` is answered 400 and the server
// keeps serving: a session opened before it still works, and a new one can
// start. What is not one UTF-8 JSON value gets the JSON-RPC parse error, as
// on stdio (invalid UTF-8 inside a string the SDK would have taken, as
// U+FFFD); a body over the adapter's limit is answered 413.
func TestHTTPAdapterAnswersBadBodiesAndKeepsServing(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("After the bad bodies")})
	url := startHTTPMCP(t, e)
	bearer := httpBearer(t, e)
	s := httpSession(t, url, bearer)
	for _, tc := range []struct {
		name string
		body string
		want int
		code int64 // the JSON-RPC error in the body; 0 for the SDK's text answer
	}{
		{"plain text", "hello, is this thing on?", http.StatusBadRequest, jsonrpc.CodeParseError},
		{"truncated JSON", `{"jsonrpc":"2.0","id":5,"method":"tools/li`, http.StatusBadRequest, jsonrpc.CodeParseError},
		{"an empty body", "", http.StatusBadRequest, jsonrpc.CodeParseError},
		{"an array of numbers", `[1,2,3]`, http.StatusBadRequest, 0},
		{"a number", `42`, http.StatusBadRequest, 0},
		{"100000 nested arrays", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), http.StatusBadRequest, jsonrpc.CodeParseError},
		{"invalid UTF-8", "\xff\xfe\xfd", http.StatusBadRequest, jsonrpc.CodeParseError},
		{"invalid UTF-8 inside a string", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + "\xc3\x28" + `","version":"0"}}}`, http.StatusBadRequest, jsonrpc.CodeParseError},
		{"NUL bytes", "\x00\x00\x00", http.StatusBadRequest, jsonrpc.CodeParseError},
		{"a body over the adapter's limit", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", mcpserver.MaxMessage) + `"}}`, http.StatusRequestEntityTooLarge, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := rawPost(t, url, bearer, tc.body)
			if status != tc.want {
				t.Errorf("status %d, want %d: %s", status, tc.want, body)
			}
			if tc.code != 0 {
				var m rawMessage
				if err := json.Unmarshal(body, &m); err != nil || m.Error == nil || m.Error.Code != tc.code {
					t.Errorf("body %s, want a JSON-RPC error %d", body, tc.code)
				}
			}
			ok(t, s, protocol.MethodTabs, nil)
		})
	}
	ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	chromeTabByURL(t, e, base+"/")
	ok(t, httpSession(t, url, bearer), protocol.MethodTabs, nil)
}

func httpBearer(t *testing.T, e *harness.Env) string {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(e.StateDir, "adapters", "http-token"))
	if err != nil {
		t.Fatalf("the server did not leave its token file: %v", err)
	}
	return "Bearer " + strings.TrimSpace(string(token))
}

// rawPost POSTs body to url without a session and returns the status and
// the answer's body.
func rawPost(t *testing.T, url, bearer, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", bearer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, answer
}

type auditRecord struct {
	ConnectionID string             `json:"connection_id"`
	TaskID       string             `json:"task_id"`
	Method       string             `json:"method"`
	ErrorCode    protocol.ErrorCode `json:"error_code"`
	// Count: how many events a coalesced event record stands for.
	Count int `json:"count"`
}

func auditRecords(t *testing.T, e *harness.Env) []auditRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatalf("reading audit.jsonl: %v", err)
	}
	var out []auditRecord
	for line := range bytes.Lines(data) {
		var r auditRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// rawAdapter drives `agenttab mcp` over its real stdin and stdout, one line
// at a time, so that a test can send what no MCP client library would.
type rawAdapter struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *bytes.Buffer
	nextID int
}

func startRawAdapter(t *testing.T, e *harness.Env) *rawAdapter {
	t.Helper()
	cmd := exec.Command(e.Bin, "mcp")
	cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
	a := &rawAdapter{cmd: cmd, lines: make(chan []byte, 16), stderr: &bytes.Buffer{}}
	cmd.Stderr = a.stderr
	var err error
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting agenttab mcp: %v", err)
	}
	go func() {
		defer close(a.lines)
		br := bufio.NewReader(stdout)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				a.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		if a.cmd.ProcessState == nil {
			a.cmd.Process.Kill()
			a.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("agenttab mcp stderr:\n%s", a.stderr)
		}
	})
	return a
}

func (a *rawAdapter) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(a.stdin, line+"\n"); err != nil {
		t.Fatalf("writing to agenttab mcp: %v", err)
	}
}

// rawMessage is one line the adapter wrote: a response (ID, Result or
// Error) or a message of its own (Method).
type rawMessage struct {
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
	hasID  bool
}

// next returns the next response, skipping the adapter's own
// notifications and requests.
func (a *rawAdapter) next(t *testing.T) rawMessage {
	t.Helper()
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case line, open := <-a.lines:
			if !open {
				a.cmd.Wait()
				t.Fatalf("agenttab mcp closed its stdout (exit: %v); stderr:\n%s", a.cmd.ProcessState, a.stderr)
			}
			var m rawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("agenttab mcp wrote a line that is not JSON (%v): %q", err, line)
			}
			if m.Method != "" {
				continue
			}
			var members map[string]json.RawMessage
			json.Unmarshal(line, &members)
			_, m.hasID = members["id"]
			return m
		case <-timeout:
			t.Fatal("agenttab mcp did not answer within 2 minutes")
		}
	}
}

// request sends a request and returns its answer, which must be a result.
func (a *rawAdapter) request(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	a.nextID++
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": a.nextID, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	a.send(t, string(line))
	got := a.next(t)
	if got.Error != nil || fmt.Sprint(got.ID) != fmt.Sprint(a.nextID) {
		t.Fatalf("%s: want the result of request %d, got %+v", method, a.nextID, got)
	}
	return got.Result
}

func (a *rawAdapter) initialize(t *testing.T, version string) {
	t.Helper()
	a.request(t, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}})
	a.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (a *rawAdapter) callTool(t *testing.T, name string, args map[string]any) mcp.CallToolResult {
	t.Helper()
	var res mcp.CallToolResult
	raw := a.request(t, "tools/call", map[string]any{"name": name, "arguments": args})
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s result %s: %v", name, raw, err)
	}
	return res
}

// close ends the adapter's stdin and returns its exit code.
func (a *rawAdapter) close(t *testing.T) int {
	t.Helper()
	a.stdin.Close()
	for range a.lines {
	}
	a.cmd.Wait()
	return a.cmd.ProcessState.ExitCode()
}
