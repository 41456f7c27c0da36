package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
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

// piCommand is Pi with the adapter and the scripted model loaded, in the
// test's directories, with mode's flags (such as -p --mode json); a
// missing Pi fails the test with the command that installs it.
func piCommand(t *testing.T, ctx context.Context, e *harness.Env, d piDirs, mode ...string) *exec.Cmd {
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
	cmd := exec.CommandContext(ctx, bin, append(mode,
		"--no-builtin-tools", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files",
		"--session-dir", d.sessions,
		"-e", filepath.Join(dir, "index.ts"),
		"-e", model,
		"--provider", "agenttab-scripted", "--model", "scripted")...)
	cmd.Dir = d.work
	cmd.Env = append(os.Environ(),
		"AGENTTAB_STATE_DIR="+e.StateDir,
		"HOME="+d.home,
		"PI_CODING_AGENT_DIR="+d.agent,
		"PI_OFFLINE=1",
		"PI_TELEMETRY=0",
	)
	return cmd
}

// runPi runs Pi once with prompt (and Pi's flags, such as -c to continue
// the last session) and returns its events.
func runPi(t *testing.T, e *harness.Env, d piDirs, prompt string, flags ...string) piRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := piCommand(t, ctx, e, d, "-p", "--mode", "json")
	cmd.Args = append(append(cmd.Args, flags...), prompt)
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

// renderRows draws each tool call of run with Pi's own tool-row component
// and the adapter's renderers (e2e/testdata/pi/render-rows.ts, run by the
// jiti that Pi loads extensions with).
func (r piRun) renderRows(t *testing.T) []renderedRow {
	t.Helper()
	in, err := json.Marshal(toolRows(r.events))
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
	return drawRows(t, cmd, in)
}

// piRPC is one Pi process in RPC mode (`pi --mode rpc`, Pi's docs/rpc.md):
// commands as JSON lines on its stdin, responses and events on its stdout.
// It drives what only a running Pi does, such as /new (new_session).
type piRPC struct {
	stdin  io.WriteCloser
	lines  chan map[string]any
	stderr *bytes.Buffer
	stdout *bytes.Buffer // every line read, for failure messages
}

// startPiRPC starts Pi in RPC mode; the test's end closes its stdin and waits for it.
func startPiRPC(t *testing.T, e *harness.Env, d piDirs) *piRPC {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := piCommand(t, ctx, e, d, "--mode", "rpc")
	p := &piRPC{lines: make(chan map[string]any, 256), stderr: new(bytes.Buffer), stdout: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.stdin = stdin
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var ev map[string]any
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				p.lines <- ev
			}
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Errorf("pi --mode rpc did not exit when its stdin closed")
		}
		cancel()
	})
	return p
}

// next is Pi's next line, or a failed test when Pi stops or stalls.
func (p *piRPC) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case ev, ok := <-p.lines:
		if !ok {
			t.Fatalf("pi --mode rpc exited\nstderr:\n%s\nstdout (tail):\n%s", p.stderr.Bytes(), tailBytes(p.stdout.Bytes(), 3000))
		}
		line, _ := json.Marshal(ev)
		p.stdout.Write(append(line, '\n'))
		return ev
	case <-time.After(60 * time.Second):
		t.Fatalf("pi --mode rpc said nothing for 60 s\nstderr:\n%s\nstdout (tail):\n%s", p.stderr.Bytes(), tailBytes(p.stdout.Bytes(), 3000))
		return nil
	}
}

// command sends one command and returns its response's data; events
// before the response are returned too, in order.
func (p *piRPC) command(t *testing.T, command map[string]any) (data map[string]any, events []map[string]any) {
	t.Helper()
	line, err := json.Marshal(command)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		t.Fatalf("writing %s to pi: %v", line, err)
	}
	for {
		ev := p.next(t)
		if ev["type"] != "response" || ev["command"] != command["type"] {
			events = append(events, ev)
			continue
		}
		if ok, _ := ev["success"].(bool); !ok {
			t.Fatalf("pi refused %s: %v", line, ev)
		}
		data, _ = ev["data"].(map[string]any)
		return data, events
	}
}

// prompt sends one prompt and returns its events up to agent_end, as runPi would.
func (p *piRPC) prompt(t *testing.T, text string) piRun {
	t.Helper()
	_, events := p.command(t, map[string]any{"type": "prompt", "message": text})
	run := piRun{events: events}
	for len(run.events) == 0 || run.events[len(run.events)-1]["type"] != "agent_end" {
		run.events = append(run.events, p.next(t))
	}
	for _, ev := range run.events {
		line, _ := json.Marshal(ev)
		run.stdout = append(append(run.stdout, line...), '\n')
	}
	return run // stderr is read once Pi has exited (exec writes it meanwhile)
}
