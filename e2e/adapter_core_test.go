package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/adapterbuild"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 15: the adapters' shared TypeScript Core client (adapters/core),
// in node, against the real host and Chromium: open, snapshot, act and
// finish through Core RPC, the resume capability kept 0600 under
// STATE/adapters/ and in no other file, and dropped at finish.
func TestCoreClientDrivesTheBrowser(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/core": `<!doctype html><title>Core client</title><button onclick="document.title='clicked'">Press</button>`})

	driver := adapterbuild.StartDriver(t, adapterbuild.DriverEntry, e.StateDir, "e2e-session")
	call := func(tool string, args map[string]any) (string, map[string]any) {
		t.Helper()
		line, _ := json.Marshal(map[string]any{"tool": tool, "args": args})
		out, err := driver.Ask(line)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var r struct {
			IsError           bool `json:"isError"`
			Content           []struct{ Text string }
			StructuredContent map[string]any `json:"structuredContent"`
		}
		if err := json.Unmarshal(out, &r); err != nil || r.IsError || len(r.Content) == 0 {
			t.Fatalf("%s: %v %s", tool, err, out)
		}
		return r.Content[0].Text, r.StructuredContent
	}

	_, opened := call(protocol.MethodOpen, map[string]any{"url": base + "/core", "idempotency_key": "open-1"})
	tab, _ := opened["tab"].(map[string]any)["tab"].(string)
	capFile := adapterbuild.DriverCapability(e.StateDir, "e2e-session")
	info, err := os.Stat(capFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the capability file: %v %v", info, err)
	}
	capability, _ := os.ReadFile(capFile)

	text, snap := call(protocol.MethodSnapshot, map[string]any{"tab": tab})
	ref := regexp.MustCompile(`button "Press" \[ref=(e\d+)\]`).FindStringSubmatch(text)
	if ref == nil {
		t.Fatalf("the snapshot has no Press button:\n%s", text)
	}
	_, acted := call(protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": snap["page_revision"], "actions": []any{map[string]any{"kind": "click", "ref": ref[1]}}})
	if acted["outcome"] == string(protocol.OutcomeNotStarted) {
		t.Fatalf("the click did not run: %v", acted)
	}
	_, tabs := call(protocol.MethodTabs, nil)
	if list, _ := tabs["tabs"].([]any); len(list) != 1 || list[0].(map[string]any)["title"] != "clicked" {
		t.Fatalf("after the click the task's tabs are %v", tabs)
	}
	noSecretInState(t, e, capFile, strings.TrimSpace(string(capability)))

	call(protocol.MethodFinish, map[string]any{"close_tabs": true})
	if _, err := os.Stat(capFile); !os.IsNotExist(err) {
		t.Fatalf("the capability file outlived the task: %v", err)
	}
}
