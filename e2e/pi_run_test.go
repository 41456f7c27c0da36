package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
)

// The real Pi coding agent from npm (adapters/pi/package.json, installed
// by scripts/deps.sh), run non-interactively (`pi -p --mode json`, its
// JSON event stream on stdout) with the AgentTab adapter and the scripted
// model of e2e/testdata/pi loaded, and nothing of the user's: its agent
// directory, HOME, session directory and working directory are the test's.

// piDirs are one Pi run's private directories.
type piDirs struct {
	root, home, agent, sessions, work string
}

func newPiDirs(t *testing.T) piDirs {
	t.Helper()
	root := t.TempDir()
	d := piDirs{root: root, home: filepath.Join(root, "home"), agent: filepath.Join(root, "agent"), sessions: filepath.Join(root, "sessions"), work: filepath.Join(root, "work")}
	for _, dir := range []string{d.home, d.agent, d.sessions, d.work} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// adapterPiDir is adapters/pi in this checkout.
func adapterPiDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "adapters", "pi")
}

// piRun is what one Pi run printed: its events, and stdout/stderr whole.
type piRun struct {
	events         []map[string]any
	stdout, stderr []byte
}

// runPi runs Pi once with prompt (and Pi's flags, such as -c to continue
// the last session) and returns its events. A missing Pi fails the test
// with the command that installs it.
func runPi(t *testing.T, e *harness.Env, d piDirs, prompt string, flags ...string) piRun {
	t.Helper()
	dir := adapterPiDir()
	bin := filepath.Join(dir, "node_modules", ".bin", "pi")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the Pi coding agent is not installed (%v): run make deps (npm ci --prefix adapters/pi)", err)
	}
	// go test runs in the package's folder; Pi runs in its own.
	model, err := filepath.Abs(filepath.Join("testdata", "pi", "scripted-model.ts"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "--mode", "json",
		"--no-builtin-tools", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files",
		"--session-dir", d.sessions,
		"-e", filepath.Join(dir, "index.ts"),
		"-e", model,
		"--provider", "agenttab-scripted", "--model", "scripted")
	cmd.Args = append(append(cmd.Args, flags...), prompt)
	cmd.Dir = d.work
	cmd.Env = append(os.Environ(),
		"AGENTTAB_STATE_DIR="+e.StateDir,
		"HOME="+d.home,
		"PI_CODING_AGENT_DIR="+d.agent,
		"PI_OFFLINE=1",
		"PI_TELEMETRY=0",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pi: %v\nstderr:\n%s\nstdout (tail):\n%s", err, stderr.Bytes(), tailBytes(stdout.Bytes(), 4000))
	}
	run := piRun{stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	sc := bufio.NewScanner(bytes.NewReader(run.stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("pi printed a line that is not JSON (%v): %.300s", err, sc.Text())
		}
		run.events = append(run.events, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return run
}

func tailBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// piToolEnd is one tool_execution_end event: what Pi reported of a call.
type piToolEnd struct {
	Name    string
	IsError bool
	Text    string         // the result's text content, joined
	Details map[string]any // what the adapter kept for Pi's UI (the card)
}

func (r piRun) toolEnds() []piToolEnd {
	var out []piToolEnd
	for _, ev := range r.events {
		if ev["type"] != "tool_execution_end" {
			continue
		}
		end := piToolEnd{}
		end.Name, _ = ev["toolName"].(string)
		end.IsError, _ = ev["isError"].(bool)
		res, _ := ev["result"].(map[string]any)
		end.Details, _ = res["details"].(map[string]any)
		content, _ := res["content"].([]any)
		var texts []string
		for _, c := range content {
			if block, _ := c.(map[string]any); block["type"] == "text" {
				s, _ := block["text"].(string)
				texts = append(texts, s)
			}
		}
		end.Text = strings.Join(texts, "\n")
		out = append(out, end)
	}
	return out
}

// piReport is the scripted model's last message: what Pi sent it on its
// first turn.
type piReport struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"tools"`
	SystemPrompt string `json:"systemPrompt"`
}

func (r piRun) report(t *testing.T) piReport {
	t.Helper()
	for i := len(r.events) - 1; i >= 0; i-- {
		ev := r.events[i]
		msg, _ := ev["message"].(map[string]any)
		if ev["type"] != "message_end" || msg["role"] != "assistant" {
			continue
		}
		content, _ := msg["content"].([]any)
		for _, c := range content {
			block, _ := c.(map[string]any)
			text, _ := block["text"].(string)
			var rep struct {
				Report *piReport `json:"report"`
			}
			if json.Unmarshal([]byte(text), &rep) == nil && rep.Report != nil {
				return *rep.Report
			}
		}
	}
	t.Fatalf("the scripted model's report is not in pi's events:\n%s", tailBytes(r.stdout, 4000))
	return piReport{}
}

// renderedRow is one tool row as Pi's TUI draws it (render-rows.ts).
type renderedRow struct {
	Name      string   `json:"name"`
	Collapsed []string `json:"collapsed"`
	Expanded  []string `json:"expanded"`
}

// renderRows draws each tool call of run with Pi's own tool-row component
// and the adapter's renderers (e2e/testdata/pi/render-rows.ts, run by the
// jiti that Pi loads extensions with).
func (r piRun) renderRows(t *testing.T) []renderedRow {
	t.Helper()
	args := map[any]any{}
	var rows []map[string]any
	for _, ev := range r.events {
		switch ev["type"] {
		case "tool_execution_start":
			args[ev["toolCallId"]] = ev["args"]
		case "tool_execution_end":
			res, _ := ev["result"].(map[string]any)
			rows = append(rows, map[string]any{"name": ev["toolName"], "args": args[ev["toolCallId"]], "result": map[string]any{
				"content": res["content"], "details": res["details"], "isError": ev["isError"],
			}})
		}
	}
	in, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "pi", "render-rows.ts"))
	if err != nil {
		t.Fatal(err)
	}
	// Pi's packages export ESM only, so they are aliased to their entry
	// files, as Pi's extension loader does (its jiti aliases).
	modules := filepath.Join(adapterPiDir(), "node_modules")
	alias := map[string]string{}
	for _, pkg := range []string{"pi-coding-agent", "pi-tui", "pi-ai"} {
		alias["@mariozechner/"+pkg] = filepath.Join(modules, "@mariozechner", pkg, "dist", "index.js")
	}
	aliasJSON, err := json.Marshal(alias)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(modules, ".bin", "jiti"), script)
	cmd.Env = append(os.Environ(), "JITI_ALIAS="+string(aliasJSON))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("render-rows.ts: %v\n%s", err, stderr.Bytes())
	}
	var drawn []renderedRow
	if err := json.Unmarshal(out, &drawn); err != nil {
		t.Fatalf("render-rows.ts printed %.500s: %v", out, err)
	}
	return drawn
}
