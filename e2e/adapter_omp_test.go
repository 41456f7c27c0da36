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
	called[protocol.MethodFinish] = true // by the second run, below
	for name := range want {
		if !called[name] {
			t.Errorf("%s was never called through OMP", name)
		}
	}

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
	// one browser_wait request, not two.
	if n := auditMethodCount(t, e, protocol.MethodWait); n != 1 {
		t.Errorf("audit.jsonl holds %d browser_wait records, want 1", n)
	}
	// The task is open: its capability is in the adapter's private file
	// and nowhere else.
	capability := checkCapability(t, e, r)
	task := ompTaskID(t, r)

	// A second OMP process continuing the session takes the capability
	// back (a new process, same task) and finishes the task.
	r2 := runOMP(t, e, home, "finish", base, "--continue")
	ends = r2.toolEnds()
	if len(ends) != 1 || ends[0]["toolName"] != protocol.MethodFinish || ends[0]["isError"] == true {
		t.Fatalf("the continued run's calls: %v\nstderr:\n%s", ends, r2.stderr)
	}
	res, _ := ends[0]["result"].(map[string]any)
	if text := ompResultText(res); !strings.Contains(text, `"id":"`+task+`"`) {
		t.Errorf("browser_finish in the continued session finished %s, want the first run's task %s", text, task)
	}
	checkCard(t, protocol.MethodFinish, res, false)
	checkCapabilityGone(t, e, capability, r, r2)
}

func auditMethodCount(t *testing.T, e *harness.Env, method string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Method string `json:"method"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Method == method {
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

// checkCapability: the adapter's capability file is private (0600 in a
// 0700 directory) and its value is in no other file. It returns the value.
func checkCapability(t *testing.T, e *harness.Env, r *ompRun) string {
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
	if len(files) != 1 {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("capability files for omp: %v, want one (the directory holds %v)", files, entries)
	}
	st, err = os.Stat(files[0])
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: mode %v (%v), want 0600", files[0], st.Mode().Perm(), err)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	capability := capabilityValue(t, raw)
	checkCapabilityGone(t, e, capability, r)
	return capability
}

// checkCapabilityGone: the capability is in no file but the adapter's own
// capability file: not the state directory (audit, host.log, database),
// not OMP's HOME (sessions, logs, caches), not OMP's output, not the
// host's, Chromium's or agenttab mcp's output.
func checkCapabilityGone(t *testing.T, e *harness.Env, capability string, runs ...*ompRun) {
	t.Helper()
	roots := []string{e.StateDir}
	outputs := map[string]string{"Chromium's and agenttab mcp's output": e.Logs()}
	for i, r := range runs {
		roots = append(roots, r.home)
		outputs[fmt.Sprintf("OMP run %d's stdout", i+1)] = string(r.stdout)
		outputs[fmt.Sprintf("OMP run %d's stderr", i+1)] = string(r.stderr)
	}
	adapters := filepath.Join(e.StateDir, "adapters")
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
				return nil
			}
			if filepath.Dir(path) == adapters && strings.HasSuffix(path, ".capability") {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil && bytes.Contains(b, []byte(capability)) {
				t.Errorf("%s holds the capability", path)
			}
			return nil
		})
	}
	for name, out := range outputs {
		if strings.Contains(out, capability) {
			t.Errorf("%s holds the capability", name)
		}
	}
}

// ompTaskID is the task id in the run's browser_tabs result.
func ompTaskID(t *testing.T, r *ompRun) string {
	t.Helper()
	for _, ev := range r.toolEnds() {
		if ev["toolName"] != protocol.MethodTabs || ev["isError"] == true {
			continue
		}
		res, _ := ev["result"].(map[string]any)
		var tabs struct {
			Task struct {
				ID string `json:"id"`
			} `json:"task"`
		}
		if json.Unmarshal([]byte(ompResultText(res)), &tabs) == nil && tabs.Task.ID != "" {
			return tabs.Task.ID
		}
	}
	t.Fatal("no browser_tabs result names the task")
	return ""
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
// too, and only then (TestOMPAdapter lists the ten without it).
func TestOMPAdapterDeveloperMode(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
	want := mcpTools(t, e)
	if want[protocol.MethodDeveloper] == nil {
		t.Fatal("agenttab mcp does not list browser_developer with developer_mode on")
	}
	r := runOMP(t, e, t.TempDir(), "list", "")
	checkListing(t, r, want)
	if got := r.finalText(); got != "listed" {
		t.Fatalf("the scripted model ended with %q", got)
	}
}
