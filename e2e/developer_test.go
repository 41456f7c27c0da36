package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 13, spec 000 "Developer mode": browser_developer is listed only
// when policy.json enables developer_mode; it evaluates and sends raw
// DevTools commands on owned tabs only; a task that used it is marked in
// its tab group's title (read from Chrome) and in the popup; the audit
// keeps the call's shape, never the expression.

const devCanary = "dev-canary-91c2"

func listsTool(t *testing.T, s *mcp.ClientSession, name string) bool {
	t.Helper()
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(tools.Tools, func(tool *mcp.Tool) bool { return tool.Name == name })
}

func TestDeveloperModeOff(t *testing.T) {
	e := harness.Start(t)
	s := e.MCP(t)
	if listsTool(t, s, protocol.MethodDeveloper) {
		t.Fatal("browser_developer is listed without developer_mode in the policy")
	}
	base := e.ServePages(map[string]string{"/": page("Plain")})
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	// The Core method is refused whatever the arguments, before anything.
	for _, params := range []map[string]any{
		{"tab": tab, "action": "evaluate", "expression": "document.title = 'changed'"},
		{"nonsense": true},
	} {
		err := e.CoreCall(context.Background(), protocol.MethodDeveloper, params, nil)
		if err == nil || !strings.Contains(err.Error(), string(protocol.CodeDeveloperModeDisabled)) || !strings.Contains(err.Error(), `"outcome":"not_started"`) {
			t.Fatalf("browser_developer %v without the policy: %v", params, err)
		}
	}
	var st protocol.StatusResult
	if err := e.CoreCall(context.Background(), protocol.MethodStatus, nil, &st); err != nil || st.DeveloperMode {
		t.Fatalf("status says developer_mode %v (%v)", st.DeveloperMode, err)
	}
}

func TestDeveloperMode(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
	base := e.ServePages(map[string]string{"/": page("Dev page"), "/other": page("Other page"), "/user": page("User page")})
	s := e.MCP(t)
	if !listsTool(t, s, protocol.MethodDeveloper) {
		t.Fatal("browser_developer is not listed with developer_mode on")
	}

	// Refusals first: none of them marks the task.
	other := e.MCP(t)
	theirs := handleOf(t, ok(t, other, protocol.MethodOpen, map[string]any{"url": base + "/other"}))
	// A user's tab: a tab a finished task left to the user; its old handle names nothing owned.
	leaver := e.MCP(t)
	left := handleOf(t, ok(t, leaver, protocol.MethodOpen, map[string]any{"url": base + "/user"}))
	ok(t, leaver, protocol.MethodFinish, map[string]any{})
	settings := ok(t, s, protocol.MethodOpen, map[string]any{"url": "chrome://settings/"})
	restricted := handleOf(t, settings)
	label, _ := taskOf(t, settings)["label"].(string)
	change := map[string]any{"action": "evaluate", "expression": "document.title = 'changed'"}
	for _, tc := range []struct {
		tab  string
		code protocol.ErrorCode
		args map[string]any
	}{
		{theirs, protocol.CodeNotOwned, change},
		{left, protocol.CodeNotOwned, change},
		{restricted, protocol.CodeBrowserRestrictedOrigin, change},
		{restricted, protocol.CodeBrowserRestrictedOrigin, map[string]any{"action": "cdp", "method": "DOM.getDocument"}},
	} {
		args := map[string]any{"tab": tc.tab}
		for k, v := range tc.args {
			args[k] = v
		}
		if res := refused(t, s, protocol.MethodDeveloper, args, tc.code); res["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%v: outcome %v", args, res["outcome"])
		}
	}
	for _, tab := range e.ChromeTabs(t) {
		if tab.Title == "changed" {
			t.Errorf("a refused evaluation ran in %s", tab.URL)
		}
	}
	for _, g := range e.ChromeGroups(t) {
		if strings.HasSuffix(g.Title, protocol.DeveloperMarker) {
			t.Errorf("group %q is marked before any Developer-mode call ran", g.Title)
		}
	}

	// Evaluation and a raw command on an owned tab.
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	res := ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "evaluate", "expression": "/* " + devCanary + " */ document.title"})
	if v, _ := res["result"].(map[string]any); v["value"] != "Dev page" || res["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("evaluate: %v", res)
	}
	res = ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "evaluate", "expression": "Promise.reject(new Error('boom'))"})
	if v, _ := res["result"].(map[string]any); !strings.Contains(v["exception"].(string), "boom") {
		t.Fatalf("a rejected promise: %v", res)
	}
	res = ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "cdp", "method": "Runtime.evaluate", "params": map[string]any{"expression": "1 + 2", "returnByValue": true}})
	if r, _ := res["result"].(map[string]any)["result"].(map[string]any); r["value"] != float64(3) {
		t.Fatalf("cdp Runtime.evaluate: %v", res)
	}
	res = ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "cdp", "method": "DOM.getDocument", "params": map[string]any{"depth": 1}})
	if root, _ := res["result"].(map[string]any)["root"].(map[string]any); root["nodeName"] != "#document" {
		t.Fatalf("cdp DOM.getDocument: %v", res)
	}
	refused(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "cdp", "method": "Target.createTarget", "params": map[string]any{"url": "about:blank"}}, protocol.CodeInvalidParams)

	// The mark: every group of the task (the restricted tab's too), from Chrome.
	marked := 0
	for _, g := range e.ChromeGroups(t) {
		if g.Title == label+protocol.DeveloperMarker {
			marked++
		} else if strings.HasSuffix(g.Title, protocol.DeveloperMarker) {
			t.Errorf("another task's group %q is marked", g.Title)
		}
	}
	if marked == 0 {
		t.Fatalf("no group titled %q: %v", label+protocol.DeveloperMarker, e.ChromeGroups(t))
	}
	// The task keeps working (its groups are still its own) and its next tab joins the marked group.
	ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/other"})
	if got := listed(t, ok(t, s, protocol.MethodTabs, map[string]any{})); len(got) != 3 {
		t.Fatalf("the task lists %d tabs, want 3: %v", len(got), got)
	}
	// The popup and status.
	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, "Developer mode", 10*time.Second)
	if n := popup.Count(t, "li.task .developer"); n != 1 {
		t.Fatalf("%d task rows show Developer mode, want 1:\n%s", n, popup.Text(t))
	}
	var st protocol.StatusResult
	if err := e.CoreCall(context.Background(), protocol.MethodStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	devTasks := 0
	for _, task := range st.Tasks {
		if task.Developer {
			devTasks++
		}
	}
	if !st.DeveloperMode || devTasks != 1 {
		t.Fatalf("status: developer_mode %v, %d marked tasks, want 1: %+v", st.DeveloperMode, devTasks, st.Tasks)
	}

	// The audit has the calls' shape only.
	audit, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(audit), protocol.MethodDeveloper) {
		t.Fatal("no audit record of browser_developer")
	}
	noSecretInState(t, e, "", devCanary)
}
