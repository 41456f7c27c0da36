package e2e

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
)

// The Pi and OMP tests draw each tool call the way the agent's own screen
// does (e2e/testdata/{pi,omp}/render-rows.ts, with the adapter's renderers)
// and check the rows show no page content.

// renderedRow is one tool row as the agent's screen draws it (render-rows.ts).
type renderedRow struct {
	Name      string   `json:"name"`
	Collapsed []string `json:"collapsed"`
	Expanded  []string `json:"expanded"`
}

// toolRows are the rows a render-rows.ts reads, from the tool events Pi
// and OMP both print in their JSON modes: each call's name, its arguments
// (tool_execution_start) and its result (tool_execution_end).
func toolRows(events []map[string]any) []map[string]any {
	args := map[any]any{}
	var rows []map[string]any
	for _, ev := range events {
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
	return rows
}

// drawRows runs a render-rows.ts (cmd) on rows and decodes what it drew.
func drawRows(t *testing.T, cmd *exec.Cmd, rows []byte) []renderedRow {
	t.Helper()
	cmd.Stdin = bytes.NewReader(rows)
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
