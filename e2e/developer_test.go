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

// devResultCanary is what an evaluation answers (not in its expression).
const devResultCanary = "dev-result-canary-5a3d"

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
	// What the page hands back (a cookie, a password's value) is answered, never kept.
	res = ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "evaluate", "expression": "['dev', 'result', 'canary', '5a3d'].join('-')", "idempotency_key": "0190b2a0-0000-7000-8000-0000000000e1"})
	if v, _ := res["result"].(map[string]any); v["value"] != devResultCanary {
		t.Fatalf("evaluate: %v", res)
	}
	res = ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "evaluate", "expression": "['dev', 'result', 'canary', '5a3d'].join('-')", "idempotency_key": "0190b2a0-0000-7000-8000-0000000000e1"})
	if res["replay"] != true || res["result"] != nil || res["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("a replayed evaluate answers its result again: %v", res)
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
	noSecretInState(t, e, "", devCanary, devResultCanary)
}

// Developer mode does not lift the user's managed limits: with origin
// lists, the commands that would release the origin guard's hold on the
// tab (it holds Fetch.enable on the very session browser_developer uses),
// file inputs and the profile's cookies are refused before anything ran,
// and a navigation the page then starts to a refused origin is stopped
// before that origin sees a request. Page.navigate stays: the guard
// pauses its document request like any other.
func TestDeveloperModeKeepsOriginPolicy(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true},"origins":{"denied":["http://localhost"]}}`))
	site := serveOriginSite(t, e)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"}))
	for _, call := range []map[string]any{
		{"method": "Fetch.disable"},
		{"method": "Fetch.enable", "params": map[string]any{"patterns": []any{}}},
		{"method": "Fetch.continueRequest", "params": map[string]any{"requestId": "interception-job-1.0"}},
		{"method": "Page.setPrerenderingAllowed", "params": map[string]any{"isAllowed": true}},
		{"method": "DOM.setFileInputFiles", "params": map[string]any{"files": []any{"/etc/passwd"}, "nodeId": 1}},
		{"method": "Network.getAllCookies"},
		{"method": "Storage.getCookies"},
	} {
		args := map[string]any{"tab": tab, "action": "cdp"}
		for k, v := range call {
			args[k] = v
		}
		if res := refused(t, s, protocol.MethodDeveloper, args, protocol.CodeInvalidParams); res["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%v: outcome %v", call["method"], res["outcome"])
		}
	}
	// The page's own script (evaluate) starts a navigation to the refused origin, and so does a raw Page.navigate.
	ok(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "evaluate", "expression": "location.href = '" + site.other + "/script'; 1"})
	harness.CallTool(t, s, protocol.MethodDeveloper, map[string]any{"tab": tab, "action": "cdp", "method": "Page.navigate", "params": map[string]any{"url": site.other + "/landing"}})
	time.Sleep(1500 * time.Millisecond)
	if u := tabURL(t, e, site.base); u != site.base+"/" {
		t.Fatalf("the tab moved to %s", u)
	}
	site.refusedOnOrigin(t)
}
