package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 15, spec 000 "Pi": the adapter (adapters/pi) loaded into the real
// Pi from npm lists exactly the ten Standard tools, with the names,
// descriptions and schemas `agenttab mcp` lists; each is called through
// Pi's own tool execution by a scripted model against real Chromium; the
// cards Pi keeps for its UI hold no page title or URL; the resume
// capability and the key seed are 0600 files under STATE/adapters/ named by
// the Pi session and in no other file; a new Pi session is a new task
// (spec 001 "A fresh adapter connection therefore gets a distinct task")
// and continuing a session resumes its task.

const (
	piTitleCanary = "Pi title canary 83d7"
	piURLCanary   = "pi-url-canary-5c1e" // the page's path (scripted-model.ts opens it)
)

// piCounterPage counts clicks of its Count button on the server, so the
// click's effect is seen outside the browser.
func piCounterPage(t *testing.T, e *harness.Env) (base string, clicks *atomic.Int32) {
	t.Helper()
	clicks = new(atomic.Int32)
	html := fmt.Sprintf(`<!doctype html><title>%s</title><h1>%s</h1>
<button onclick="fetch('/clicked', {method: 'POST'}).then(() => { document.getElementById('n').textContent = 'count: ' + (++window.n) })">Count</button>
<p id="n">count: 0</p><script>window.n = 0</script>`, piTitleCanary, piTitleCanary)
	base = e.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/" + piURLCanary:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, html)
		case "/clicked":
			clicks.Add(1)
		default:
			http.NotFound(w, r)
		}
	}))
	return base, clicks
}

func TestPiAdapter(t *testing.T) {
	e := harness.Start(t)
	base, clicks := piCounterPage(t, e)
	d := newPiDirs(t)
	run := runPi(t, e, d, fmt.Sprintf(`{"script":"browse","base":%q}`, base))

	// The tools Pi sent the model: the ten Standard tools, as agenttab mcp lists them.
	mcpSession := e.MCP(t)
	rep := run.report(t)
	checkPiTools(t, rep, mcpSession, protocol.StandardTools)
	// The server instructions are Pi's guideline bullets, each once.
	for para := range strings.SplitSeq(mcpSession.InitializeResult().Instructions, "\n\n") {
		if n := strings.Count(rep.SystemPrompt, strings.TrimSpace(para)); n != 1 {
			t.Errorf("the system prompt holds %d copies of the instructions' paragraph %.60q…, want 1", n, para)
		}
	}

	// Every call, as Pi's events report it.
	ends := run.toolEnds()
	piRan(t, run, ends, "browser_open", "browser_tabs", "browser_snapshot", "browser_act", "browser_wait", "browser_handoff", "browser_handoff", "browser_commit", "browser_credentials", "browser_profile", "browser_act")
	for i, end := range ends {
		switch i {
		case 7: // browser_commit of a stage that does not exist: a refusal reaches the model as an error
			piRefused(t, end, protocol.CodeStageNotFound)
		case 8: // browser_credentials prepare: the default policy's broker, and no op CLI on this machine
			piRefused(t, end, protocol.CodeNeedsUser)
		case 10: // Pi's own schema check refused kind "explode": the adapter never ran
			if !end.IsError || !strings.Contains(end.Text, `Validation failed for tool "browser_act"`) || !strings.Contains(end.Text, "actions") {
				t.Errorf("browser_act with kind explode: isError %v, %q", end.IsError, end.Text)
			}
			if _, has := end.Details["card"]; has {
				t.Errorf("browser_act with kind explode reached the adapter: %v", end.Details)
			}
		default:
			if end.IsError {
				t.Errorf("%s (call %d) failed: %s", end.Name, i, end.Text)
			}
		}
	}
	// The model read the whole result: the page's title and URL are in
	// what browser_open answered; the click's receipt is in act's.
	if !strings.Contains(ends[0].Text, piTitleCanary) || !strings.Contains(ends[0].Text, base+"/"+piURLCanary) {
		t.Errorf("browser_open's result as the model read it lacks the page's title or URL: %s", ends[0].Text)
	}
	if !strings.Contains(ends[3].Text, `"outcome":"dispatched"`) && !strings.Contains(ends[3].Text, `"outcome":"confirmed"`) {
		t.Errorf("browser_act's receipt: %s", ends[3].Text)
	}
	if n := clicks.Load(); n != 1 {
		t.Errorf("the page counted %d clicks, want 1", n)
	}
	if !strings.Contains(ends[6].Text, `"state":"dismissed"`) {
		t.Errorf("handoff dismiss: %s", ends[6].Text)
	}

	// The cards: counts and identifiers, never a title or URL.
	canaries := []string{piTitleCanary, piURLCanary, strings.TrimPrefix(base, "http://")}
	piCardsClean(t, slices.Delete(slices.Clone(ends), 10, 11), canaries)
	piSessionCardsClean(t, d, canaries, len(ends))
	rows := piRowsShowCards(t, run, canaries, len(ends))
	t.Logf("browser_open collapsed: %q; expanded: %q", rows[0].Collapsed, rows[0].Expanded)
	t.Logf("browser_commit (refused) collapsed: %q", rows[7].Collapsed)
	session1 := piSessionFile(t, d, nil)
	private := piPrivateFiles(t, e, d, run, piSessionID(t, session1), true)
	task1 := piTaskID(t, ends[1].Text)
	audited := len(auditRecords(t, e))

	// A second Pi run that does not continue the session is a new session,
	// so a new task: it lists no tab, its tab is in another task (the
	// host's and the audit's task id differ), and the first session's
	// private files are as it left them.
	fresh := runPi(t, e, d, fmt.Sprintf(`{"script":"fresh","base":%q}`, base))
	ends2 := fresh.toolEnds()
	piRan(t, fresh, ends2, "browser_tabs", "browser_open")
	for _, end := range ends2 {
		if end.IsError {
			t.Fatalf("%s in the new session failed: %s", end.Name, end.Text)
		}
	}
	if strings.Contains(ends2[0].Text, `"tab":"tab_`) {
		t.Errorf("a new Pi session's task lists tabs (the first session's task was resumed): %s", ends2[0].Text)
	}
	task2 := piTaskID(t, ends2[0].Text)
	if task2 == task1 {
		t.Errorf("a new Pi session runs in the first session's task %s", task1)
	}
	if got := piAuditTasks(t, e, audited); !slices.Equal(got, []string{task2}) {
		t.Errorf("the audit records the new session's calls in tasks %v, want only %s (the first session's is %s)", got, task2, task1)
	}
	private.unchanged(t)
	session2 := piSessionFile(t, d, []string{session1})
	piPrivateFiles(t, e, d, fresh, piSessionID(t, session2), false)
	private.unchanged(t)
	audited = len(auditRecords(t, e))

	// A third run continues the first session (--session names its file):
	// the adapter takes that session's capability back, so its task is the
	// first one (it lists the tab the first run opened, not the second's),
	// and finishes it.
	again := runPi(t, e, d, `{"script":"finish"}`, "--session", session1)
	ends3 := again.toolEnds()
	piRan(t, again, ends3, "browser_tabs", "browser_finish")
	if handle := piHandle(t, ends[0].Text); !strings.Contains(ends3[0].Text, `"tab":"`+handle+`"`) {
		t.Errorf("the continued run's task does not list %s, the tab the first run opened: %s", handle, ends3[0].Text)
	}
	if other := piHandle(t, ends2[1].Text); strings.Contains(ends3[0].Text, `"tab":"`+other+`"`) {
		t.Errorf("the continued run's task lists %s, the new session's tab: %s", other, ends3[0].Text)
	}
	if got := piTaskID(t, ends3[0].Text); got != task1 {
		t.Errorf("the continued run's task is %s, want the first session's %s", got, task1)
	}
	if got := piAuditTasks(t, e, audited); !slices.Equal(got, []string{task1}) {
		t.Errorf("the audit records the continued run's calls in tasks %v, want only %s", got, task1)
	}
	for _, end := range ends3 {
		if end.IsError {
			t.Errorf("%s in the continued run failed: %s", end.Name, end.Text)
		}
	}
	private.nowhere(t, e, d, again)
}

// Inside one running Pi, /new (RPC new_session) starts a new session and
// so a new task, which lists none of the first session's tabs; going back
// to the first session (/resume, RPC switch_session) resumes its task.
func TestPiAdapterNewSession(t *testing.T) {
	e := harness.Start(t)
	base, _ := piCounterPage(t, e)
	d := newPiDirs(t)
	pi := startPiRPC(t, e, d)
	fresh := fmt.Sprintf(`{"script":"fresh","base":%q}`, base)

	first := pi.prompt(t, fresh)
	ends1 := first.toolEnds()
	piRan(t, first, ends1, "browser_tabs", "browser_open")
	task1, tab1 := piTaskID(t, ends1[0].Text), piHandle(t, ends1[1].Text)
	state, _ := pi.command(t, map[string]any{"type": "get_state"})
	file1, _ := state["sessionFile"].(string)
	if file1 == "" {
		t.Fatalf("get_state names no session file: %v", state)
	}

	if data, _ := pi.command(t, map[string]any{"type": "new_session"}); data["cancelled"] != false {
		t.Fatalf("new_session: %v", data)
	}
	second := pi.prompt(t, fresh)
	ends2 := second.toolEnds()
	piRan(t, second, ends2, "browser_tabs", "browser_open")
	if strings.Contains(ends2[0].Text, `"tab":"tab_`) {
		t.Errorf("after /new the task lists tabs (the first session's task went on): %s", ends2[0].Text)
	}
	task2, tab2 := piTaskID(t, ends2[0].Text), piHandle(t, ends2[1].Text)
	if task2 == task1 {
		t.Errorf("after /new Pi runs in the first session's task %s", task1)
	}

	if data, _ := pi.command(t, map[string]any{"type": "switch_session", "sessionPath": file1}); data["cancelled"] != false {
		t.Fatalf("switch_session: %v", data)
	}
	back := pi.prompt(t, `{"script":"finish"}`)
	ends3 := back.toolEnds()
	piRan(t, back, ends3, "browser_tabs", "browser_finish")
	if got := piTaskID(t, ends3[0].Text); got != task1 {
		t.Errorf("back in the first session the task is %s, want %s", got, task1)
	}
	if !strings.Contains(ends3[0].Text, `"tab":"`+tab1+`"`) || strings.Contains(ends3[0].Text, `"tab":"`+tab2+`"`) {
		t.Errorf("back in the first session the task lists %s, want %s and not %s", ends3[0].Text, tab1, tab2)
	}
	for _, end := range slices.Concat(ends1, ends2, ends3) {
		if end.IsError {
			t.Errorf("%s failed: %s", end.Name, end.Text)
		}
	}
}

// piRan checks Pi ran exactly these tools, in this order.
func piRan(t *testing.T, run piRun, ends []piToolEnd, want ...string) {
	t.Helper()
	var names []string
	for _, end := range ends {
		names = append(names, end.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("pi ran %v, want %v\n%s", names, want, tailBytes(run.stdout, 3000))
	}
}

// piHandle is the tab handle of a browser_open result's text.
func piHandle(t *testing.T, text string) string {
	t.Helper()
	var res struct {
		Tab struct {
			Tab string `json:"tab"`
		} `json:"tab"`
	}
	if err := json.Unmarshal([]byte(text), &res); err != nil || !strings.HasPrefix(res.Tab.Tab, "tab_") {
		t.Fatalf("no tab handle in browser_open's result %q (%v)", text, err)
	}
	return res.Tab.Tab
}

// piRowsShowCards draws each call as Pi's TUI does: collapsed, the tool's
// title and one card row; expanded, the card's lines; never a title or URL
// of the page, though the model read them. It returns the rows.
func piRowsShowCards(t *testing.T, run piRun, canaries []string, calls int) []renderedRow {
	t.Helper()
	rows := run.renderRows(t)
	if len(rows) != calls {
		t.Fatalf("rendered %d rows, want %d", len(rows), calls)
	}
	for i, row := range rows {
		if len(row.Collapsed) != 2 {
			t.Errorf("%s (call %d) collapsed is %d lines, want the title and one card row: %q", row.Name, i, len(row.Collapsed), row.Collapsed)
		}
		if len(row.Expanded) < len(row.Collapsed) {
			t.Errorf("%s (call %d) expanded shows less than collapsed: %q", row.Name, i, row.Expanded)
		}
		for _, c := range canaries {
			for _, line := range slices.Concat(row.Collapsed, row.Expanded) {
				if strings.Contains(line, c) {
					t.Errorf("%s (call %d): Pi drew %q", row.Name, i, line)
				}
			}
		}
	}
	return rows
}

// piRefused checks a call the host refused reached the model as an error
// with its code and recovery text.
func piRefused(t *testing.T, end piToolEnd, code protocol.ErrorCode) {
	t.Helper()
	checkRefusedText(t, end.Name, end.IsError, end.Text, code)
	if failed, _ := end.Details["failed"].(bool); !failed {
		t.Errorf("%s's card does not say it failed: %v", end.Name, end.Details)
	}
}

// checkRefusedText checks what an adapter gave the model for a call the
// host refused: an error whose text is the code, the recovery and outcome
// not_started (adapters/core/src/results.ts).
func checkRefusedText(t *testing.T, name string, isError bool, text string, code protocol.ErrorCode) {
	t.Helper()
	if !isError || !strings.HasPrefix(text, string(code)+": ") || !strings.Contains(text, "\nRecovery: ") || !strings.Contains(text, "\nOutcome: not_started") {
		t.Errorf("%s: isError %v, want %s with recovery and not_started: %q", name, isError, code, text)
	}
}

// checkPiTools compares the tools Pi sent the model with agenttab mcp's
// tools/list: the same names (exactly want), descriptions and input schemas.
func checkPiTools(t *testing.T, rep piReport, s *mcp.ClientSession, want []string) {
	t.Helper()
	var names []string
	for _, tool := range rep.Tools {
		names = append(names, tool.Name)
	}
	if !sameSet(names, want) {
		t.Fatalf("pi lists %v, want exactly %v", names, want)
	}
	listed, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range rep.Tools {
		i := slices.IndexFunc(listed.Tools, func(m *mcp.Tool) bool { return m.Name == tool.Name })
		if i < 0 {
			t.Errorf("pi lists %s, agenttab mcp does not", tool.Name)
			continue
		}
		m := listed.Tools[i]
		if tool.Description != m.Description {
			t.Errorf("%s: pi's description differs from agenttab mcp's", tool.Name)
		}
		mcpSchema, _ := json.Marshal(m.InputSchema)
		if !jsonEqual(t, tool.Parameters, mcpSchema) {
			t.Errorf("%s: pi's parameters\n%s\ndiffer from agenttab mcp's input schema\n%s", tool.Name, tool.Parameters, mcpSchema)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	nx, _ := json.Marshal(x)
	ny, _ := json.Marshal(y)
	return bytes.Equal(nx, ny)
}

// piCardsClean checks each call's details (what the adapter kept for Pi's
// UI) hold a card and no canary.
func piCardsClean(t *testing.T, ends []piToolEnd, canaries []string) {
	t.Helper()
	for i, end := range ends {
		raw, _ := json.Marshal(end.Details)
		if _, has := end.Details["card"].(map[string]any); !has {
			t.Errorf("%s (call %d): no card in details %s", end.Name, i, raw)
		}
		for _, c := range canaries {
			if bytes.Contains(raw, []byte(c)) {
				t.Errorf("%s's card holds %q: %s", end.Name, c, raw)
			}
		}
	}
}

// piSessionCardsClean checks what Pi's session file keeps for its UI (each
// tool result's details) holds no canary.
func piSessionCardsClean(t *testing.T, d piDirs, canaries []string, calls int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(d.sessions, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("pi's session dir holds %v, want one session file", files)
	}
	if results := sessionDetailsClean(t, files[0], canaries); results != calls {
		t.Errorf("pi's session file holds %d tool results, want %d", results, calls)
	}
}

// sessionDetailsClean checks the details of each tool result in a Pi or
// OMP session file (JSON lines, {"message":{"role":"toolResult",
// "details":…}}) hold no canary, and returns how many results it read.
func sessionDetailsClean(t *testing.T, file string, canaries []string) (results int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var entry struct {
			Message struct {
				Role    string          `json:"role"`
				Details json.RawMessage `json:"details"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &entry) != nil || entry.Message.Role != "toolResult" {
			continue
		}
		results++
		for _, c := range canaries {
			if bytes.Contains(entry.Message.Details, []byte(c)) {
				t.Errorf("a tool result's details in %s hold %q: %s", file, c, entry.Message.Details)
			}
		}
	}
	return results
}

// piPrivate is one Pi session's private files under STATE/adapters/ as
// a run left them.
type piPrivate struct {
	paths, values []string // the capability and the key seed's secret
	raw           [][]byte
	mtimes        []time.Time
}

// piPrivateFiles checks the adapter's private files for a Pi session: the
// resume capability and the idempotency key seed, each a 0600 file in the
// 0700 STATE/adapters/ named by the session (the first 16 hex digits of
// its id's SHA-256, never the id), each value in no other file of the
// state directory (host.log, audit, database), of Pi's directories
// (session, agent, HOME, working directory) or of Pi's output. Only a
// session whose calls passed an idempotency key of the agent's has a seed
// (keys).
func piPrivateFiles(t *testing.T, e *harness.Env, d piDirs, run piRun, session string, keys bool) piPrivate {
	t.Helper()
	dir := filepath.Join(e.StateDir, "adapters")
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("STATE/adapters: %v (%v), want 0700", st, err)
	}
	sum := sha256.Sum256([]byte(session))
	stem := filepath.Join(dir, "pi-"+hex.EncodeToString(sum[:])[:16])
	var p piPrivate
	for _, path := range []string{stem + ".capability", stem + ".keys"} {
		st, err := os.Stat(path)
		if strings.HasSuffix(path, ".keys") && !keys {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: %v (%v), want none: this session passed no idempotency key", path, st, err)
			}
			continue
		}
		if err != nil || st.Mode().Perm() != 0o600 {
			entries, _ := os.ReadDir(dir)
			t.Fatalf("%s: %v (%v), want 0600; STATE/adapters holds %v", path, st, err, entries)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		value := strings.TrimSpace(string(raw))
		if strings.HasSuffix(path, ".keys") {
			var seed struct {
				Secret string `json:"secret"`
			}
			if err := json.Unmarshal(raw, &seed); err != nil || len(seed.Secret) < 40 {
				t.Fatalf("%s holds %q, not a key seed (%v)", path, raw, err)
			}
			value = seed.Secret
		}
		if len(value) < 16 {
			t.Fatalf("%s holds %q, not a capability", path, value)
		}
		p.paths, p.values, p.raw, p.mtimes = append(p.paths, path), append(p.values, value), append(p.raw, raw), append(p.mtimes, st.ModTime())
	}
	p.nowhere(t, e, d, run)
	return p
}

// unchanged checks each private file still holds what it held, unwritten.
func (p piPrivate) unchanged(t *testing.T) {
	t.Helper()
	for i, path := range p.paths {
		st, err := os.Stat(path)
		raw, _ := os.ReadFile(path)
		if err != nil || !bytes.Equal(raw, p.raw[i]) || !st.ModTime().Equal(p.mtimes[i]) {
			t.Errorf("%s changed (%v): another Pi session touched this session's private file", path, err)
		}
	}
}

// nowhere checks each private value is in no file but its own and not in run's output.
func (p piPrivate) nowhere(t *testing.T, e *harness.Env, d piDirs, run piRun) {
	t.Helper()
	for i, value := range p.values {
		piNowhere(t, e, d, run, value, p.paths[i])
	}
}

// piSessionFile is the one session file in Pi's session directory that is
// not in old.
func piSessionFile(t *testing.T, d piDirs, old []string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(d.sessions, "*.jsonl"))
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(old, f) })
	if len(files) != 1 {
		t.Fatalf("pi's session dir holds new session files %v, want one", files)
	}
	return files[0]
}

// piSessionID is the id in a Pi session file's header (its first line,
// {"type":"session","id":…}): what the adapter's private files are named by.
func piSessionID(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	var head struct {
		Type, ID string
	}
	if err := json.Unmarshal(first, &head); err != nil || head.Type != "session" || head.ID == "" {
		t.Fatalf("%s does not open with a session header: %.200s (%v)", file, first, err)
	}
	return head.ID
}

// piTaskID is the task id in a tool result's text ({"task":{"id":…}}).
func piTaskID(t *testing.T, text string) string {
	t.Helper()
	var res struct {
		Task struct {
			ID string `json:"id"`
		} `json:"task"`
	}
	if err := json.Unmarshal([]byte(text), &res); err != nil || res.Task.ID == "" {
		t.Fatalf("no task id in the result %q (%v)", text, err)
	}
	return res.Task.ID
}

// piAuditTasks are the distinct task ids of the audit's records after the
// first from.
func piAuditTasks(t *testing.T, e *harness.Env, from int) []string {
	t.Helper()
	var tasks []string
	for _, r := range auditRecords(t, e)[from:] {
		if r.TaskID != "" && !slices.Contains(tasks, r.TaskID) {
			tasks = append(tasks, r.TaskID)
		}
	}
	return tasks
}

// piNowhere checks value is in no file under the state directory but
// except, none of Pi's directories, and not in Pi's output.
func piNowhere(t *testing.T, e *harness.Env, d piDirs, run piRun, value, except string) {
	t.Helper()
	if bytes.Contains(run.stdout, []byte(value)) || bytes.Contains(run.stderr, []byte(value)) {
		t.Error("pi's output holds the capability")
	}
	for _, root := range []string{e.StateDir, d.root} {
		filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() || path == except || de.Type()&fs.ModeSocket != 0 {
				return nil
			}
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(value)) {
				t.Errorf("%s holds the capability", path)
			}
			return nil
		})
	}
}

// Developer mode on in the user's policy: Pi lists browser_developer too,
// from the first turn, and the scripted model calls it through Pi's tool
// execution: an evaluation of the page's title reaches the model whole
// while the card Pi keeps and draws holds no title; a refused DevTools
// method (Storage.getCookies) reaches the model as invalid_params,
// not_started, and reads nothing (the page's HttpOnly cookie is in no
// result).
func TestPiAdapterDeveloperMode(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
	const cookie = "pi-dev-cookie-9b42"
	base := devCookiePage(t, e, "/"+piURLCanary, piTitleCanary, cookie)
	d := newPiDirs(t)
	run := runPi(t, e, d, fmt.Sprintf(`{"script":"developer","base":%q}`, base))
	checkPiTools(t, run.report(t), e.MCP(t), append(slices.Clone(protocol.StandardTools), protocol.MethodDeveloper))

	ends := run.toolEnds()
	piRan(t, run, ends, "browser_open", "browser_developer", "browser_developer", "browser_finish")
	for i, end := range ends {
		if i != 2 && end.IsError {
			t.Errorf("%s (call %d) failed: %s", end.Name, i, end.Text)
		}
		if strings.Contains(end.Text, cookie) {
			t.Errorf("%s (call %d) answered the page's HttpOnly cookie: %s", end.Name, i, end.Text)
		}
	}
	// The model read the whole evaluation.
	var eval protocol.DeveloperResult
	if err := json.Unmarshal([]byte(ends[1].Text), &eval); err != nil || eval.Outcome != protocol.OutcomeConfirmed {
		t.Errorf("browser_developer evaluate as the model read it: %q (%v)", ends[1].Text, err)
	}
	if v, _ := eval.Result.(map[string]any); v["value"] != piTitleCanary {
		t.Errorf("browser_developer evaluate of document.title answered %v, want %q", eval.Result, piTitleCanary)
	}
	// The refusal: the host's code, nothing started, and the host audited it as refused.
	piRefused(t, ends[2], protocol.CodeInvalidParams)
	if !strings.Contains(ends[2].Text, "Storage.getCookies is refused in Developer mode") {
		t.Errorf("the refusal does not say why: %q", ends[2].Text)
	}
	checkDeveloperAudit(t, e)

	// The cards, in Pi's events, its session file and its tool rows: never the title or URL.
	canaries := []string{piTitleCanary, piURLCanary, strings.TrimPrefix(base, "http://"), cookie}
	piCardsClean(t, ends, canaries)
	piSessionCardsClean(t, d, canaries, len(ends))
	rows := piRowsShowCards(t, run, canaries, len(ends))
	t.Logf("browser_developer evaluate collapsed: %q; refused: %q", rows[1].Collapsed, rows[2].Collapsed)
}

// checkDeveloperAudit checks the host audited the two browser_developer
// calls of a developer script: the evaluation, then the refusal.
func checkDeveloperAudit(t *testing.T, e *harness.Env) {
	t.Helper()
	var audited []protocol.ErrorCode
	for _, r := range auditRecords(t, e) {
		if r.Method == protocol.MethodDeveloper {
			audited = append(audited, r.ErrorCode)
		}
	}
	if !slices.Equal(audited, []protocol.ErrorCode{"", protocol.CodeInvalidParams}) {
		t.Errorf("the audit's browser_developer records carry the codes %q, want the evaluation's none, then invalid_params", audited)
	}
}

// devCookiePage serves one page at path titled title that sets an
// HttpOnly cookie, which only a DevTools cookie or storage command (which
// browser_developer refuses) could read.
func devCookiePage(t *testing.T, e *harness.Env, path, title, cookie string) (base string) {
	t.Helper()
	return e.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Set-Cookie", "agenttab_dev="+cookie+"; Path=/; HttpOnly")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>%s</title><h1>%s</h1>`, title, title)
	}))
}
