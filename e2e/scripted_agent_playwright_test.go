package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/chromium"
)

// startPlaywrightMCP runs Playwright MCP from npm (e2e/corpus/package.json)
// on this machine's Chromium, headless, with an in-memory profile and no
// browser download, as its users run it; the session closes when tb ends.
// Its files (.playwright-mcp/: snapshots of each action, console logs) go
// to a temporary working directory.
func startPlaywrightMCP(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	cli := filepath.Join(harness.CorpusModules(), "@playwright", "mcp", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		tb.Fatalf("Playwright MCP is not installed (%v): run scripts/deps.sh", err)
	}
	browser, err := chromium.Find()
	if err != nil {
		tb.Fatal(err)
	}
	args := []string{cli, "--headless", "--isolated", "--executable-path", browser}
	if os.Geteuid() == 0 {
		// As for AgentTab's own launches (internal/chromium/args.go):
		// Chromium refuses to run as root with its sandbox.
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = tb.TempDir()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-scripted-agent", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		tb.Fatalf("starting Playwright MCP: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// playwrightTools serves the scripted agent with Playwright MCP's tools:
// browser_navigate, browser_snapshot, and a call per step
// (browser_click, browser_type, browser_select_option, browser_drag,
// browser_press_key, browser_wait_for), with consecutive form fields in
// one browser_fill_form as a Playwright agent fills a form. Its actions
// answer with a link to a snapshot file, not the snapshot (0.0.83), so
// the agent reads the page with browser_snapshot.
type playwrightTools struct {
	s *mcp.ClientSession
	m callMeter
}

func (d *playwrightTools) name() string      { return "Playwright MCP" }
func (d *playwrightTools) meter() *callMeter { return &d.m }

// call makes one metered call and turns an error answer into an error.
func (d *playwrightTools) call(name string, args map[string]any, snapshot bool) (string, error) {
	res, text, err := d.m.toolCall(d.s, name, args, snapshot)
	if err != nil {
		return "", err
	}
	if res.IsError || strings.HasPrefix(text, "### Error") {
		return "", fmt.Errorf("%s: %s", name, playwrightError(text))
	}
	return text, nil
}

var ansiRe = regexp.MustCompile("\x1b\\[[0-9;]*m")

// playwrightError is an error answer on one line: its message and call log
// without the heading and the terminal colours.
func playwrightError(text string) string {
	text = ansiRe.ReplaceAllString(strings.TrimPrefix(text, "### Error\n"), "")
	var parts []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && l != "Call log:" {
			parts = append(parts, l)
		}
	}
	return clipped(strings.Join(parts, " / "), 600)
}

func (d *playwrightTools) open(url string) error {
	_, err := d.call("browser_navigate", map[string]any{"url": url}, false)
	return err
}

func (d *playwrightTools) snapshot() (string, error) {
	return d.call("browser_snapshot", map[string]any{}, true)
}

func (d *playwrightTools) run(steps []agentStep, after bool) (string, error) {
	for i := 0; i < len(steps); {
		n := formRun(steps[i:])
		var err error
		if n >= 2 {
			err = d.fillForm(steps[i : i+n])
		} else {
			n = 1
			err = d.step(steps[i])
		}
		if err != nil {
			return "", fmt.Errorf("step %d (%s): %w", i, steps[i], err)
		}
		i += n
	}
	if !after {
		return "", nil
	}
	return d.snapshot()
}

// formRun is how many steps from the first are form fields in a row.
func formRun(steps []agentStep) int {
	n := 0
	for _, st := range steps {
		if st.kind != "fill" && st.kind != "select" && st.kind != "check" {
			break
		}
		n++
	}
	return n
}

func (d *playwrightTools) fillForm(steps []agentStep) error {
	fields := make([]map[string]any, len(steps))
	for i, st := range steps {
		f := map[string]any{"target": st.ref, "name": st.ref, "type": "textbox", "value": st.text}
		switch st.kind {
		case "select":
			f["type"], f["value"] = "combobox", st.value
		case "check":
			f["type"], f["value"] = "checkbox", "true"
		}
		fields[i] = f
	}
	_, err := d.call("browser_fill_form", map[string]any{"fields": fields}, false)
	return err
}

func (d *playwrightTools) step(st agentStep) error {
	var err error
	switch st.kind {
	case "click", "check":
		_, err = d.call("browser_click", map[string]any{"target": st.ref}, false)
	case "type":
		// slowly: a key at a time, for pages that listen to keys.
		_, err = d.call("browser_type", map[string]any{"target": st.ref, "text": st.text, "slowly": true}, false)
	case "fill":
		_, err = d.call("browser_type", map[string]any{"target": st.ref, "text": st.text}, false)
	case "select":
		_, err = d.call("browser_select_option", map[string]any{"target": st.ref, "values": []string{st.value}}, false)
	case "press":
		_, err = d.call("browser_press_key", map[string]any{"key": st.keys}, false)
	case "drag":
		// No drop position: Playwright drops on the target's centre.
		_, err = d.call("browser_drag", map[string]any{"startTarget": st.ref, "endTarget": st.toRef}, false)
	case "wait_text":
		_, err = d.call("browser_wait_for", map[string]any{"text": st.text}, false)
	case "navigate":
		err = d.open(st.text)
	default:
		err = fmt.Errorf("no Playwright tool for %s", st.kind)
	}
	return err
}

// closePage leaves the page, outside the task's count.
func (d *playwrightTools) closePage() {
	var m callMeter
	m.toolCall(d.s, "browser_navigate", map[string]any{"url": "about:blank"}, false)
}
