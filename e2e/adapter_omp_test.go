package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 15, spec 000: the native OMP adapter (adapters/omp) loaded into the
// real OMP from npm (@oh-my-pi/pi-coding-agent, run by Bun from npm), in
// OMP's non-interactive JSON mode, with OMP's own test provider scripted by
// e2e/testdata/omp/scripted-model.ts. Every Standard tool is called through
// OMP's tool-execution path against a real Chromium session.

const (
	ompTitleCanary = "OmpTitleCnry4k2"
	ompPathCanary  = "omp-canary-path"
)

// ompCounterPage counts clicks on its button, in the page and in its title.
const ompCounterPage = `<!doctype html><title>` + ompTitleCanary + `</title>
<button id="b">Count</button><p id="c">count: 0</p>
<script>let n = 0; document.getElementById('b').addEventListener('click', () => {
  n++; document.getElementById('c').textContent = 'count: ' + n; document.title = '` + ompTitleCanary + ` clicked ' + n;
});</script>`

// ompRun is one OMP process's output.
type ompRun struct {
	stdout, stderr []byte
	home           string // HOME of the run: OMP's config, sessions, logs
	events         []map[string]any
	context        struct {
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		} `json:"tools"`
		SystemPrompt []string `json:"systemPrompt"`
	}
}

// ompCommand is Bun from npm running OMP's CLI from npm, both installed by
// `make deps` in adapters/omp/node_modules.
func ompCommand(t *testing.T) (bun, cli, root string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	arch := map[string]string{"amd64": "x64", "arm64": "aarch64"}[runtime.GOARCH]
	bun = filepath.Join(root, "adapters/omp/node_modules/@oven", "bun-"+runtime.GOOS+"-"+arch, "bin/bun")
	cli = filepath.Join(root, "adapters/omp/node_modules/@oh-my-pi/pi-coding-agent/dist/cli.js")
	for _, f := range []string{bun, cli} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("OMP is not installed (%v): run `make deps` (npm ci --prefix adapters/omp)", err)
		}
	}
	return bun, cli, root
}

// runOMP runs `omp -p --mode json` with the adapter and the scripted model
// in home, a private HOME, so nothing touches the user's ~/.omp; the
// working directory is the same for every run in home, so --continue
// continues the previous run's session.
func runOMP(t *testing.T, e *harness.Env, home, script, base string, extra ...string) *ompRun {
	t.Helper()
	bun, cli, root := ompCommand(t)
	work := filepath.Join(home, "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{cli, "-p", "--mode", "json",
		"--no-tools", "--no-extensions", "--no-skills", "--no-rules", "--no-title", "--no-lsp",
		"--model", "agenttab-scripted/scripted",
		"-e", filepath.Join(root, "adapters/omp/index.ts"),
		"-e", filepath.Join(root, "e2e/testdata/omp/scripted-model.ts")}, extra...)
	cmd := exec.CommandContext(ctx, bun, append(args, "Use the browser.")...)
	cmd.Dir = work
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "AGENTTAB_STATE_DIR=") || strings.HasPrefix(kv, "XDG_") || strings.HasPrefix(kv, "HOME=") ||
			strings.HasPrefix(kv, "PI_") || strings.HasPrefix(kv, "OMP_")
	}), "HOME="+home, "AGENTTAB_STATE_DIR="+e.StateDir, "AGENTTAB_OMP_SCRIPT="+script, "AGENTTAB_OMP_SCRIPT_BASE="+base)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := &ompRun{stdout: stdout.Bytes(), stderr: stderr.Bytes(), home: home}
	if err != nil {
		t.Fatalf("omp: %v\nstderr:\n%s\nstdout:\n%s", err, r.stderr, r.stdout)
	}
	sc := bufio.NewScanner(bytes.NewReader(r.stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("omp printed a line that is not JSON: %q", sc.Text())
		}
		r.events = append(r.events, ev)
	}
	for _, line := range strings.Split(string(r.stderr), "\n") {
		if rest, ok := strings.CutPrefix(line, "SCRIPTED-CONTEXT "); ok {
			if err := json.Unmarshal([]byte(rest), &r.context); err != nil {
				t.Fatal(err)
			}
		}
	}
	if r.context.Tools == nil {
		t.Fatalf("the scripted model was never asked\nstderr:\n%s", r.stderr)
	}
	return r
}

// toolEnds are OMP's tool_execution_end events, in order.
func (r *ompRun) toolEnds() []map[string]any {
	var out []map[string]any
	for _, ev := range r.events {
		if ev["type"] == "tool_execution_end" {
			out = append(out, ev)
		}
	}
	return out
}

// finalText is the last assistant text OMP reported.
func (r *ompRun) finalText() string {
	text := ""
	for _, ev := range r.events {
		msg, _ := ev["message"].(map[string]any)
		if ev["type"] != "message_end" || msg["role"] != "assistant" {
			continue
		}
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if m, _ := b.(map[string]any); m["type"] == "text" {
				text, _ = m["text"].(string)
			}
		}
	}
	return text
}

// mcpTools is what `agenttab mcp` lists, the source the adapter must match.
func mcpTools(t *testing.T, e *harness.Env) map[string]map[string]any {
	t.Helper()
	list, err := e.MCP(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, tool := range list.Tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var schema map[string]any
		json.Unmarshal(raw, &schema)
		out[tool.Name] = map[string]any{"description": tool.Description, "schema": schema}
	}
	return out
}

// checkListing: OMP offered the model exactly the tools `agenttab mcp`
// lists, with the same descriptions and input schemas, and the shared
// instructions once in the system prompt.
func checkListing(t *testing.T, r *ompRun, want map[string]map[string]any) {
	t.Helper()
	var names []string
	for _, tool := range r.context.Tools {
		names = append(names, tool.Name)
		w, ok := want[tool.Name]
		if !ok {
			continue
		}
		if tool.Description != w["description"] {
			t.Errorf("%s: OMP sent the description %q, agenttab mcp lists %q", tool.Name, tool.Description, w["description"])
		}
		if !reflect.DeepEqual(tool.Parameters, w["schema"]) {
			t.Errorf("%s: OMP sent the schema %v, agenttab mcp lists %v", tool.Name, tool.Parameters, w["schema"])
		}
	}
	var wantNames []string
	for name := range want {
		wantNames = append(wantNames, name)
	}
	slices.Sort(names)
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Errorf("OMP offered the model %v, want %v", names, wantNames)
	}
	instructions := 0
	for _, part := range r.context.SystemPrompt {
		if strings.Contains(part, "task-owned tabs") {
			instructions++
		}
	}
	if instructions != 1 {
		t.Errorf("the system prompt holds AgentTab's instructions %d times, want once", instructions)
	}
}

func TestOMPAdapter(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/" + ompPathCanary + "/counter": ompCounterPage})
	want := mcpTools(t, e)
	if got := slices.Sorted(maps.Keys(want)); !slices.Equal(got, slices.Sorted(slices.Values(protocol.StandardTools))) {
		t.Fatalf("agenttab mcp lists %v without Developer mode, want the Standard tools %v", got, protocol.StandardTools)
	}

	home := t.TempDir()
	r := runOMP(t, e, home, "all", base)
	checkListing(t, r, want)
	if got := r.finalText(); got != "paused" {
		t.Fatalf("the scripted model ended with %q\nstderr:\n%s", got, r.stderr)
	}

	// Each call's result as OMP's events report it.
	type expect struct {
		tool  string
		isErr bool
		has   string // in the result text the model received
	}
	steps := []expect{
		{protocol.MethodOpen, false, `"tab":"`},
		{protocol.MethodTabs, false, `"tabs":[`},
		{protocol.MethodSnapshot, false, `button "Count"`},
		// One turn, two calls: the wait for the click's effect ran (and
		// ended unsatisfied) before the click was dispatched.
		{protocol.MethodWait, false, `"satisfied":false`},
		{protocol.MethodAct, false, `"outcome":"dispatched"`},
		{protocol.MethodWait, false, `"satisfied":true`},
		{protocol.MethodHandoff, false, `"state":"open"`},
		{protocol.MethodHandoff, false, `"notice_id":"`},
		{protocol.MethodCommit, true, string(protocol.CodeStageNotFound)},
		{protocol.MethodCredentials, true, string(protocol.CodeNeedsUser)},
		{protocol.MethodProfile, false, `"op":"bookmarks_tree"`},
		{protocol.MethodWait, true, "Validation failed"},
	}
	ends := r.toolEnds()
	if len(ends) != len(steps) {
		t.Fatalf("OMP ran %d tool calls, want %d\nstdout:\n%s", len(ends), len(steps), r.stdout)
	}
	called := map[string]bool{}
	for i, ev := range ends {
		w := steps[i]
		res, _ := ev["result"].(map[string]any)
		text := ompResultText(res)
		isErr, _ := ev["isError"].(bool)
		if ev["toolName"] != w.tool || isErr != w.isErr || !strings.Contains(text, w.has) {
			t.Errorf("call %d: %v isError %v, want %s isError %v with %q; text %s", i, ev["toolName"], isErr, w.tool, w.isErr, w.has, text)
		}
		if w.isErr && w.has != "Validation failed" && !strings.Contains(text, "Recovery: ") {
			t.Errorf("call %d (%s): the failure reached the model without its recovery text: %s", i, w.tool, text)
		}
		called[w.tool] = true
		checkCard(t, w.tool, res, w.has == "Validation failed")
	}
	called[protocol.MethodFinish] = true // by the third run, below
	for name := range want {
		if !called[name] {
			t.Errorf("%s was never called through OMP", name)
		}
	}
	checkOMPSequential(t, e, r)
	rows := checkOMPRows(t, r, len(steps))
	t.Logf("browser_open collapsed: %q; expanded: %q", rows[0].Collapsed, rows[0].Expanded)
	t.Logf("browser_commit (refused) collapsed: %q", rows[8].Collapsed)

	// The page-side effect: one click reached the page.
	found := false
	for _, tab := range e.ChromeTabs(t) {
		if strings.Contains(tab.URL, ompPathCanary) {
			found = true
			if tab.Title != ompTitleCanary+" clicked 1" {
				t.Errorf("the counter page's title is %q, want one click", tab.Title)
			}
		}
	}
	if !found {
		t.Error("no tab at the counter page")
	}

	// The call OMP refused by its schema reached nothing: the audit holds
	// the two browser_wait requests the host ran, not three.
	if n := auditMethodCount(t, e, protocol.MethodWait); n != 2 {
		t.Errorf("audit.jsonl holds %d browser_wait records, want 2", n)
	}
	// The task is open: its capability and key seed are in the adapter's
	// private files and nowhere else.
	first := checkPrivateFiles(t, e, nil, true, r)
	task, opened := ompTabsResult(t, r)
	if len(opened) != 1 {
		t.Fatalf("run 1's browser_tabs lists %v, want the tab it opened", opened)
	}
	session := ompSessionID(t, r)

	// Run 2, a new session in the same folder (no --continue): a new task
	// that sees none of run 1's tabs, in private files of its own; run 1's
	// files are not touched.
	r2 := runOMP(t, e, home, "tabs", base)
	if got := r2.finalText(); got != "listed-tabs" {
		t.Fatalf("run 2's scripted model ended with %q\nstderr:\n%s", got, r2.stderr)
	}
	if s2 := ompSessionID(t, r2); s2 == session {
		t.Fatalf("run 2 without --continue is in run 1's session %s", s2)
	}
	task2, tabs2 := ompTabsResult(t, r2)
	if task2 == task {
		t.Errorf("a new OMP session resumed run 1's task %s", task)
	}
	if len(tabs2) != 0 {
		t.Errorf("a new OMP session lists run 1's tabs %v", tabs2)
	}
	if got := lastAuditTask(t, e); got != task2 {
		t.Errorf("the host audited run 2's browser_tabs in task %q, want run 2's task %q", got, task2)
	}
	first.unchanged(t)
	second := checkPrivateFiles(t, e, []string{first.capability.path}, false, r, r2)
	checkSecretsGone(t, e, first, r, r2)

	// Run 3 resumes run 1's session (--resume): a new process that takes
	// run 1's task back (its tab is listed) and finishes it.
	r3 := runOMP(t, e, home, "resume", base, "--resume", session)
	ends = r3.toolEnds()
	if len(ends) != 2 || ends[0]["toolName"] != protocol.MethodTabs || ends[1]["toolName"] != protocol.MethodFinish || ends[1]["isError"] == true {
		t.Fatalf("the resumed run's calls: %v\nstderr:\n%s", ends, r3.stderr)
	}
	task3, tabs3 := ompTabsResult(t, r3)
	if task3 != task {
		t.Errorf("the resumed session is in task %s, want run 1's task %s", task3, task)
	}
	if !slices.Equal(tabs3, opened) {
		t.Errorf("the resumed session lists the tabs %v, want run 1's %v", tabs3, opened)
	}
	res, _ := ends[1]["result"].(map[string]any)
	if text := ompResultText(res); !strings.Contains(text, `"id":"`+task+`"`) {
		t.Errorf("browser_finish in the resumed session finished %s, want run 1's task %s", text, task)
	}
	checkCard(t, protocol.MethodFinish, res, false)
	checkSecretsGone(t, e, first, r, r2, r3)
	checkSecretsGone(t, e, second, r, r2, r3)
}

// checkOMPSequential: the two calls of one turn (a wait for "count: 1",
// then the click) ran one after the other, in the model's order: OMP
// ended the wait before it started the click, and the host finished the
// wait before it ran the click, so the wait did not see the click.
func checkOMPSequential(t *testing.T, e *harness.Env, r *ompRun) {
	t.Helper()
	var order []string
	for _, ev := range r.events {
		if ev["type"] == "tool_execution_start" || ev["type"] == "tool_execution_end" {
			order = append(order, fmt.Sprintf("%s %v", strings.TrimPrefix(ev["type"].(string), "tool_execution_"), ev["toolName"]))
		}
	}
	waitEnd := slices.Index(order, "end "+protocol.MethodWait)
	actStart := slices.Index(order, "start "+protocol.MethodAct)
	if waitEnd < 0 || actStart < 0 || waitEnd > actStart {
		t.Errorf("OMP started the click before the wait of the same turn ended: %v", order)
	}
	var methods []string
	for _, rec := range auditRecords(t, e) {
		if rec.Method == protocol.MethodWait || rec.Method == protocol.MethodAct {
			methods = append(methods, rec.Method)
		}
	}
	if len(methods) < 2 || methods[0] != protocol.MethodWait || methods[1] != protocol.MethodAct {
		t.Errorf("the host ran %v, want the turn's wait, then its click", methods)
	}
}

// checkOMPRows draws each call with OMP's own tool row and the adapter's
// renderers: collapsed, the tool's title and the card's title line;
// expanded, the card's lines too; never the page's title or URL, though
// the model read them. It returns the rows.
func checkOMPRows(t *testing.T, r *ompRun, calls int) []renderedRow {
	t.Helper()
	rows := ompRenderRows(t, r)
	if len(rows) != calls {
		t.Fatalf("rendered %d rows, want %d", len(rows), calls)
	}
	for i, row := range rows {
		res, _ := r.toolEnds()[i]["result"].(map[string]any)
		details, _ := res["details"].(map[string]any)
		card, _ := details["card"].(map[string]any)
		title, _ := card["title"].(string)
		lines, _ := card["lines"].([]any)
		if title != "" {
			if len(row.Collapsed) != 2 || row.Collapsed[1] != title {
				t.Errorf("%s (call %d) collapsed is %q, want the tool's title and %q", row.Name, i, row.Collapsed, title)
			}
			if len(row.Expanded) != 2+len(lines) {
				t.Errorf("%s (call %d) expanded is %q, want the title and the card's %d lines", row.Name, i, row.Expanded, len(lines))
			}
		}
		for _, line := range slices.Concat(row.Collapsed, row.Expanded) {
			for _, c := range []string{ompTitleCanary, ompPathCanary, "http://", "127.0.0.1", "count: "} {
				if strings.Contains(line, c) {
					t.Errorf("%s (call %d): OMP drew %q", row.Name, i, line)
				}
			}
		}
	}
	return rows
}

// ompRenderRows runs e2e/testdata/omp/render-rows.ts with OMP's Bun on
// each call of r (its args and result from OMP's events).
func ompRenderRows(t *testing.T, r *ompRun) []renderedRow {
	t.Helper()
	in, err := json.Marshal(toolRows(r.events))
	if err != nil {
		t.Fatal(err)
	}
	bun, _, root := ompCommand(t)
	dir := filepath.Join(root, "e2e/testdata/omp")
	// --no-install: Bun must never fetch a package; OMP's are installed.
	cmd := exec.Command(bun, "--no-install", "--tsconfig-override="+filepath.Join(dir, "render-rows.tsconfig.json"), filepath.Join(dir, "render-rows.ts"))
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "HOME=") }), "HOME="+r.home)
	return drawRows(t, cmd, in)
}

// ompSessionID is the id of the OMP session a run used (the session
// header OMP's JSON mode prints first).
func ompSessionID(t *testing.T, r *ompRun) string {
	t.Helper()
	for _, ev := range r.events {
		if id, _ := ev["id"].(string); ev["type"] == "session" && id != "" {
			return id
		}
	}
	t.Fatalf("OMP printed no session header\nstdout:\n%.2000s", r.stdout)
	return ""
}

// ompTabsResult is the run's first browser_tabs result: its task and tabs.
func ompTabsResult(t *testing.T, r *ompRun) (task string, tabs []string) {
	t.Helper()
	for _, ev := range r.toolEnds() {
		if ev["toolName"] != protocol.MethodTabs || ev["isError"] == true {
			continue
		}
		res, _ := ev["result"].(map[string]any)
		var v struct {
			Task struct {
				ID string `json:"id"`
			} `json:"task"`
			Tabs []struct {
				Tab string `json:"tab"`
			} `json:"tabs"`
		}
		if err := json.Unmarshal([]byte(ompResultText(res)), &v); err != nil || v.Task.ID == "" {
			t.Fatalf("browser_tabs answered %s (%v), want its task and tabs", ompResultText(res), err)
		}
		tabs = []string{}
		for _, tab := range v.Tabs {
			tabs = append(tabs, tab.Tab)
		}
		return v.Task.ID, tabs
	}
	t.Fatal("no browser_tabs result")
	return "", nil
}

// lastAuditTask is the task of the host's last browser_tabs record.
func lastAuditTask(t *testing.T, e *harness.Env) string {
	t.Helper()
	recs := auditRecords(t, e)
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Method == protocol.MethodTabs {
			return recs[i].TaskID
		}
	}
	t.Fatal("audit.jsonl holds no browser_tabs record")
	return ""
}

func auditMethodCount(t *testing.T, e *harness.Env, method string) int {
	t.Helper()
	n := 0
	for _, rec := range auditRecords(t, e) {
		if rec.Method == method {
			n++
		}
	}
	return n
}

// ompResultText is the text an OMP tool result gave the model.
func ompResultText(res map[string]any) string {
	var b strings.Builder
	blocks, _ := res["content"].([]any)
	for _, block := range blocks {
		if m, _ := block.(map[string]any); m["type"] == "text" {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// checkCard: the card OMP stores (details, in its events and session file)
// holds identifiers only, never the page's title or URL; a call OMP itself
// refused has OMP's own error details instead.
func checkCard(t *testing.T, tool string, res map[string]any, refusedByOMP bool) {
	t.Helper()
	details, _ := res["details"].(map[string]any)
	if refusedByOMP {
		return
	}
	card, _ := details["card"].(map[string]any)
	title, _ := card["title"].(string)
	if title == "" {
		t.Errorf("%s: no card in the result's details: %v", tool, details)
		return
	}
	raw, _ := json.Marshal(card)
	for _, c := range []string{ompTitleCanary, ompPathCanary, "http://", "https://", "127.0.0.1"} {
		if strings.Contains(string(raw), c) {
			t.Errorf("%s: the card shows %q: %s", tool, c, raw)
		}
	}
}

// ompSecret is one of a session's private files and the secret it holds.
type ompSecret struct {
	path, secret string
	raw          []byte
	mod          time.Time
}

// ompPrivate is one OMP session's private files: its task's resume
// capability and its idempotency-key seed.
type ompPrivate struct{ capability, keys ompSecret }

// checkPrivateFiles: the one omp capability file in STATE/adapters not in
// known, and the key seed beside it (written once the task used an
// agent's idempotency key: withKeys), are private (0600 in a 0700
// directory) and their secrets are in no other file. It returns them.
func checkPrivateFiles(t *testing.T, e *harness.Env, known []string, withKeys bool, runs ...*ompRun) ompPrivate {
	t.Helper()
	dir := filepath.Join(e.StateDir, "adapters")
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatalf("no adapters directory in the state directory: %v", err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("%s has mode %v, want 0700", dir, st.Mode().Perm())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "omp-*.capability"))
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(known, f) })
	if len(files) != 1 {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("new capability files for omp: %v, want one (the directory holds %v)", files, entries)
	}
	read := func(path string, value func([]byte) string) ompSecret {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("%s has mode %v, want 0600", path, st.Mode().Perm())
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return ompSecret{path: path, secret: value(raw), raw: raw, mod: st.ModTime()}
	}
	p := ompPrivate{capability: read(files[0], func(raw []byte) string { return capabilityValue(t, raw) })}
	if withKeys {
		p.keys = read(strings.TrimSuffix(files[0], ".capability")+".keys", func(raw []byte) string { return keySeedValue(t, raw) })
	}
	checkSecretsGone(t, e, p, runs...)
	return p
}

func (p ompPrivate) files() []ompSecret {
	if p.keys.path == "" {
		return []ompSecret{p.capability}
	}
	return []ompSecret{p.capability, p.keys}
}

// unchanged: nothing rewrote the session's private files.
func (p ompPrivate) unchanged(t *testing.T) {
	t.Helper()
	for _, f := range p.files() {
		st, err := os.Stat(f.path)
		if err != nil {
			t.Errorf("%s is gone: %v", f.path, err)
			continue
		}
		raw, _ := os.ReadFile(f.path)
		if !bytes.Equal(raw, f.raw) || !st.ModTime().Equal(f.mod) {
			t.Errorf("%s was rewritten by another session", f.path)
		}
	}
}

// checkSecretsGone: each secret is in no file but its own: not the state
// directory (audit, host.log, database, other sessions' files), not OMP's
// HOME (sessions, logs, caches), not OMP's output, not the host's,
// Chromium's or agenttab mcp's output.
func checkSecretsGone(t *testing.T, e *harness.Env, p ompPrivate, runs ...*ompRun) {
	t.Helper()
	roots := []string{e.StateDir}
	outputs := map[string]string{"Chromium's and agenttab mcp's output": e.Logs()}
	for i, r := range runs {
		roots = append(roots, r.home)
		outputs[fmt.Sprintf("OMP run %d's stdout", i+1)] = string(r.stdout)
		outputs[fmt.Sprintf("OMP run %d's stderr", i+1)] = string(r.stderr)
	}
	for _, f := range p.files() {
		for _, root := range roots {
			filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 || path == f.path {
					return nil
				}
				if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(f.secret)) {
					t.Errorf("%s holds the secret of %s", path, filepath.Base(f.path))
				}
				return nil
			})
		}
		for name, out := range outputs {
			if strings.Contains(out, f.secret) {
				t.Errorf("%s holds the secret of %s", name, filepath.Base(f.path))
			}
		}
	}
}

// keySeedValue is the secret in an adapter's key seed file
// (adapters/core/src/keys.ts: {"secret": base64, "unix_ms": n}).
func keySeedValue(t *testing.T, raw []byte) string {
	t.Helper()
	var v struct {
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(raw, &v); err != nil || len(v.Secret) < 32 {
		t.Fatalf("the key seed file holds %q (%v), want a JSON seed", raw, err)
	}
	return v.Secret
}

// capabilityValue is the secret in an adapter's capability file: the
// whole file, or its "capability" member when it is JSON.
func capabilityValue(t *testing.T, raw []byte) string {
	t.Helper()
	var v struct {
		Capability string `json:"capability"`
	}
	if json.Unmarshal(raw, &v) == nil && v.Capability != "" {
		return v.Capability
	}
	s := strings.TrimSpace(string(raw))
	if len(s) < 16 {
		t.Fatalf("the capability file holds %d bytes, too short to be a capability", len(s))
	}
	return s
}

// With Developer mode on in the user's policy, OMP lists browser_developer
// too, and only then (TestOMPAdapter lists the ten without it), and the
// scripted model calls it through OMP's tool execution: an evaluation of
// the page's title reaches the model whole while the card OMP keeps (in its
// events and session file) and draws holds no title; a refused DevTools
// method (Storage.getCookies) reaches the model as invalid_params,
// not_started, and reads nothing (the page's HttpOnly cookie is in no
// result).
func TestOMPAdapterDeveloperMode(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
	want := mcpTools(t, e)
	if want[protocol.MethodDeveloper] == nil {
		t.Fatal("agenttab mcp does not list browser_developer with developer_mode on")
	}
	const cookie = "omp-dev-cookie-61fa"
	base := devCookiePage(t, e, "/"+ompPathCanary+"/developer", ompTitleCanary, cookie)
	r := runOMP(t, e, t.TempDir(), "developer", base)
	checkListing(t, r, want)
	if got := r.finalText(); got != "developer-done" {
		t.Fatalf("the scripted model ended with %q\nstderr:\n%s", got, r.stderr)
	}

	ends := r.toolEnds()
	var names, texts []string
	for _, ev := range ends {
		name, _ := ev["toolName"].(string)
		res, _ := ev["result"].(map[string]any)
		names, texts = append(names, name), append(texts, ompResultText(res))
	}
	if want := []string{protocol.MethodOpen, protocol.MethodDeveloper, protocol.MethodDeveloper, protocol.MethodFinish}; !slices.Equal(names, want) {
		t.Fatalf("OMP ran %v, want %v\nstdout:\n%s", names, want, r.stdout)
	}
	for i, ev := range ends {
		if isErr, _ := ev["isError"].(bool); i != 2 && isErr {
			t.Errorf("%s (call %d) failed: %s", names[i], i, texts[i])
		}
		if strings.Contains(texts[i], cookie) {
			t.Errorf("%s (call %d) answered the page's HttpOnly cookie: %s", names[i], i, texts[i])
		}
		res, _ := ev["result"].(map[string]any)
		checkCard(t, names[i], res, false)
		if raw, _ := json.Marshal(res["details"]); bytes.Contains(raw, []byte(ompTitleCanary)) || bytes.Contains(raw, []byte(cookie)) {
			t.Errorf("%s (call %d): the details OMP keeps hold the page's title or cookie: %s", names[i], i, raw)
		}
	}
	// The model read the whole evaluation.
	var eval protocol.DeveloperResult
	if err := json.Unmarshal([]byte(texts[1]), &eval); err != nil || eval.Outcome != protocol.OutcomeConfirmed {
		t.Errorf("browser_developer evaluate as the model read it: %q (%v)", texts[1], err)
	}
	if v, _ := eval.Result.(map[string]any); v["value"] != ompTitleCanary {
		t.Errorf("browser_developer evaluate of document.title answered %v, want %q", eval.Result, ompTitleCanary)
	}
	// The refusal: the host's code, nothing started, and the host audited it as refused.
	isErr, _ := ends[2]["isError"].(bool)
	checkRefusedText(t, names[2], isErr, texts[2], protocol.CodeInvalidParams)
	if !strings.Contains(texts[2], "Storage.getCookies is refused in Developer mode") {
		t.Errorf("the refusal does not say why: %q", texts[2])
	}
	checkDeveloperAudit(t, e)
	ompSessionDetailsClean(t, r, []string{ompTitleCanary, ompPathCanary, cookie}, len(ends))
	rows := checkOMPRows(t, r, len(ends))
	t.Logf("browser_developer evaluate collapsed: %q; refused: %q", rows[1].Collapsed, rows[2].Collapsed)
}

// ompSessionDetailsClean checks what OMP's session files (under the run's
// HOME) keep of each tool result for its UI, the details, hold no canary,
// though the result's text, which the model read, may.
func ompSessionDetailsClean(t *testing.T, r *ompRun, canaries []string, calls int) {
	t.Helper()
	results := 0
	filepath.WalkDir(r.home, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jsonl") {
			results += sessionDetailsClean(t, path, canaries)
		}
		return nil
	})
	if results != calls {
		t.Errorf("OMP's session files hold %d tool results, want %d", results, calls)
	}
}
