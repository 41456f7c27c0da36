package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

const revokeWait = 10 * time.Second

// The adapter starts before the host, says so clearly, and connects as soon
// as Chrome has started the host. It lists exactly the tools that work, with
// JSON Schemas and annotations.
func TestAdapterBeforeHostThenConnects(t *testing.T) {
	e := harness.Start(t, harness.Unlaunched())
	s := e.MCP(t)

	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"type":"object"`) || tool.Description == "" || tool.Annotations == nil {
			t.Errorf("tool %s lacks a JSON Schema object, description or annotations: %s", tool.Name, schema)
		}
		if tool.Name == protocol.MethodOpen {
			for _, want := range []string{`"enum":["create","adopt_active"]`, `"enum":["tab","new_window"]`, `"timeout_ms"`} {
				if !strings.Contains(string(schema), want) {
					t.Errorf("browser_open schema lacks %s: %s", want, schema)
				}
			}
		}
		readOnly := tool.Name == protocol.MethodTabs || tool.Name == protocol.MethodSnapshot || tool.Name == protocol.MethodWait
		if tool.Annotations.ReadOnlyHint != readOnly {
			t.Errorf("%s: readOnlyHint %v, want %v", tool.Name, tool.Annotations.ReadOnlyHint, readOnly)
		}
		if tool.Name == protocol.MethodFinish && (tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint == nil || !*tool.Annotations.DestructiveHint) {
			t.Errorf("browser_finish is not annotated destructive")
		}
	}
	slices.Sort(names)
	// Spec 000's Standard tools, all of them, and not browser_developer,
	// which policy turns on.
	want := slices.Sorted(slices.Values(protocol.StandardTools))
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want exactly %v", names, want)
	}
	if ins := s.InitializeResult().Instructions; !strings.Contains(ins, "browser_open") || !strings.Contains(ins, "browser_finish") {
		t.Errorf("server instructions do not teach the loop: %q", ins)
	}

	res := refused(t, s, protocol.MethodTabs, nil, protocol.CodeHostUnavailable)
	if res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("outcome %v", res["outcome"])
	}

	e.Launch(t)
	got := ok(t, s, protocol.MethodTabs, nil)
	if len(listed(t, got)) != 0 {
		t.Fatalf("a new task owns tabs: %v", got)
	}
}

// An agent opens a background tab in its task group; another agent cannot
// see it; finishing ends the task and, when asked, closes its tabs. Audit
// records every call without raw values.
func TestOpenListIsolateFinish(t *testing.T) {
	e := harness.Start(t)
	const canaryPath, canaryTitle = "/canary-path-7c1e", "Canary Title 4a9b"
	base := e.ServePages(map[string]string{canaryPath: page(canaryTitle), "/b": page("Page B")})
	windowsBefore := e.ChromeWindows(t)
	a, b := e.MCP(t), e.MCP(t)

	opened := ok(t, a, protocol.MethodOpen, map[string]any{"url": base + canaryPath, "mode": "create"})
	tab := tabOf(t, opened)
	if tab["automation_route"] != string(protocol.RouteFull) || tab["title"] != canaryTitle || opened["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("open result %v", opened)
	}
	handle := handleOf(t, opened)
	if handle == fmt.Sprint(chromeTabByURL(t, e, base+canaryPath).ID) {
		t.Fatalf("the handle %q is the raw Chrome tab id", handle)
	}

	// Chrome's own view: a background tab in a group titled with the task.
	ct := chromeTabByURL(t, e, base+canaryPath)
	if ct.Active {
		t.Fatal("browser_open activated its tab")
	}
	g, found := groupByID(t, e, ct.GroupID)
	if ct.GroupID == -1 || !found {
		t.Fatalf("the tab is in no group: %+v", ct)
	}
	label := taskOf(t, opened)["label"]
	if g.Title != label {
		t.Fatalf("group title %q, task label %q", g.Title, label)
	}
	if after := e.ChromeWindows(t); !sameFocus(windowsBefore, after) {
		t.Fatalf("window focus changed: before %+v after %+v", windowsBefore, after)
	}

	listA := ok(t, a, protocol.MethodTabs, nil)
	if tabs := listed(t, listA); len(tabs) != 1 || tabs[0]["tab"] != handle || tabs[0]["automation_route"] != "full" {
		t.Fatalf("task A lists %v", listA)
	}
	listB := ok(t, b, protocol.MethodTabs, nil)
	if len(listed(t, listB)) != 0 || taskOf(t, listB)["id"] == taskOf(t, listA)["id"] {
		t.Fatalf("task B sees %v", listB)
	}
	refused(t, b, protocol.MethodTabs, map[string]any{"tab": handle}, protocol.CodeNotOwned)

	// Finish without closing: the group goes, the tab stays for the user.
	fin := ok(t, a, protocol.MethodFinish, nil)
	if fin["released"] != float64(1) || fin["closed"] != float64(0) {
		t.Fatalf("finish %v", fin)
	}
	e.WaitFor(t, "the task group to disappear", revokeWait, func() bool {
		_, still := groupByID(t, e, ct.GroupID)
		return !still
	})
	if kept := chromeTabByURL(t, e, base+canaryPath); kept.GroupID != -1 {
		t.Fatalf("released tab still grouped: %+v", kept)
	}
	next := ok(t, a, protocol.MethodTabs, nil)
	if taskOf(t, next)["id"] == taskOf(t, listA)["id"] || len(listed(t, next)) != 0 {
		t.Fatalf("after finish the connection still has its old task: %v", next)
	}

	// Finish with close_tabs closes what the task opened, nothing else.
	ok(t, a, protocol.MethodOpen, map[string]any{"url": base + "/b"})
	fin = ok(t, a, protocol.MethodFinish, map[string]any{"close_tabs": true})
	if fin["closed"] != float64(1) {
		t.Fatalf("finish close_tabs %v", fin)
	}
	e.WaitFor(t, "the task's tab to close", revokeWait, func() bool {
		for _, tab := range e.ChromeTabs(t) {
			if tab.URL == base+"/b" {
				return false
			}
		}
		return true
	})
	chromeTabByURL(t, e, base+canaryPath) // the released tab is still open

	audit, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, canary := range []string{canaryPath, canaryTitle} {
		if strings.Contains(string(audit), canary) {
			t.Errorf("audit.jsonl contains the raw value %q", canary)
		}
	}
	if n := strings.Count(string(audit), `"method":"browser_`); n < 7 {
		t.Errorf("audit has %d browser_* records, want one per call (≥7)", n)
	}
}

// sameFocus reports whether every window that existed before has the same
// focus state after.
func sameFocus(before, after []harness.Window) bool {
	for _, w := range before {
		for _, a := range after {
			if a.ID == w.ID && a.Focused != w.Focused {
				return false
			}
		}
	}
	return true
}

// new_window makes one unfocused normal window for the first tab of an empty
// task, and is refused once the task owns a tab.
func TestNewWindowPlacement(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/w": page("Window page"), "/x": page("X")})
	before := e.ChromeWindows(t)
	s := e.MCP(t)

	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/w", "placement": "new_window"})
	if opened["placement"] != "new_window" {
		t.Fatalf("placement %v", opened["placement"])
	}
	after := e.ChromeWindows(t)
	if len(after) != len(before)+1 {
		t.Fatalf("windows before %d, after %d", len(before), len(after))
	}
	var created harness.Window
	for _, w := range after {
		if !slices.ContainsFunc(before, func(b harness.Window) bool { return b.ID == w.ID }) {
			created = w
		}
	}
	if created.Type != "normal" || created.State != "normal" || created.Focused {
		t.Fatalf("new window %+v, want normal and unfocused", created)
	}
	if !sameFocus(before, after) {
		t.Fatalf("focus changed: %+v → %+v", before, after)
	}
	ct := chromeTabByURL(t, e, base+"/w")
	if ct.WindowID != created.ID || ct.GroupID == -1 {
		t.Fatalf("tab %+v not grouped in the new window %d", ct, created.ID)
	}

	tabsBefore := len(e.ChromeTabs(t))
	refused(t, s, protocol.MethodOpen, map[string]any{"url": base + "/x", "placement": "new_window"}, protocol.CodeNewWindowNotEligible)
	if len(e.ChromeWindows(t)) != len(after) || len(e.ChromeTabs(t)) != tabsBefore {
		t.Fatal("a refused new_window created something")
	}
	// The default placement puts the next tab beside the task's first one.
	ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/x"})
	if x := chromeTabByURL(t, e, base+"/x"); x.WindowID != created.ID || x.GroupID != ct.GroupID {
		t.Fatalf("second tab %+v not in the task's window and group", x)
	}
}

// The user ungrouping, closing or moving a tab out of its group revokes it at
// once; a foreign tab dragged into the task group is not adopted.
func TestUserActionsRevokeOwnership(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/u": page("U"), "/c": page("C"), "/m": page("M"), "/k": page("K"), "/f": page("Foreign"), "/o": page("Other")})
	s := e.MCP(t)
	handles := map[string]string{}
	for _, p := range []string{"/u", "/c", "/m", "/k"} {
		handles[p] = handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + p}))
	}
	kept := chromeTabByURL(t, e, base+"/k")
	revisions := map[string]any{}
	for _, tab := range listed(t, ok(t, s, protocol.MethodTabs, nil)) {
		revisions[tab["tab"].(string)] = tab["page_revision"]
	}
	taskGroup := kept.GroupID

	// The user's own tabs: one in a group of their own, one ungrouped.
	var userGroup int
	e.Eval(t, fmt.Sprintf(`(async () => {
		const t = await chrome.tabs.create({url: %q, active: false});
		return await chrome.tabs.group({tabIds: [t.id]});
	})()`, base+"/o"), &userGroup)
	var foreign struct {
		ID int `json:"id"`
	}
	e.Eval(t, fmt.Sprintf(`chrome.tabs.create({url: %q, active: false})`, base+"/f"), &foreign)

	e.Eval(t, fmt.Sprintf(`chrome.tabs.ungroup(%d)`, chromeTabByURL(t, e, base+"/u").ID), nil)
	e.Eval(t, fmt.Sprintf(`chrome.tabs.remove(%d)`, chromeTabByURL(t, e, base+"/c").ID), nil)
	e.Eval(t, fmt.Sprintf(`chrome.tabs.group({groupId: %d, tabIds: [%d]})`, userGroup, chromeTabByURL(t, e, base+"/m").ID), nil)
	e.Eval(t, fmt.Sprintf(`chrome.tabs.group({groupId: %d, tabIds: [%d]})`, taskGroup, foreign.ID), nil)

	// Page work on a revoked tab is refused straight after the user's
	// action, with no browser_tabs first to bring the news.
	if res := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": handles["/u"]}, protocol.CodeNotOwned); res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("snapshot of the ungrouped tab: %v", res)
	}
	if res := refused(t, s, protocol.MethodAct, map[string]any{"tab": handles["/m"], "expected_page_revision": revisions[handles["/m"]], "actions": []any{step("navigate", "url", base+"/x")}}, protocol.CodeNotOwned); res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("act on the moved-out tab: %v", res)
	}
	for _, p := range []string{"/u", "/c", "/m"} {
		refused(t, s, protocol.MethodTabs, map[string]any{"tab": handles[p]}, protocol.CodeNotOwned)
	}
	list := listed(t, ok(t, s, protocol.MethodTabs, nil))
	if len(list) != 1 || list[0]["tab"] != handles["/k"] {
		t.Fatalf("after revocations the task lists %v, want only %s", list, handles["/k"])
	}
	// Revocation leaves the user's tabs where the user put them (and the
	// refused act left /m on its page).
	if m := chromeTabByURL(t, e, base+"/m"); m.GroupID != userGroup {
		t.Fatalf("the moved-out tab was touched: %+v", m)
	}
	if f := chromeTabByURL(t, e, base+"/f"); f.GroupID != taskGroup {
		t.Fatalf("the foreign tab was touched: %+v", f)
	}
	// Finishing with close_tabs closes only the task's own tab, never the
	// foreign tab sitting in its group.
	ok(t, s, protocol.MethodFinish, map[string]any{"close_tabs": true})
	e.WaitFor(t, "the kept tab to close", revokeWait, func() bool {
		for _, tab := range e.ChromeTabs(t) {
			if tab.ID == kept.ID {
				return false
			}
		}
		return true
	})
	chromeTabByURL(t, e, base+"/f")
	chromeTabByURL(t, e, base+"/u")
}

// Browser-owned pages open on the tab_only route.
func TestBrowserPagesAreTabOnly(t *testing.T) {
	e := harness.Start(t)
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": "chrome://version"})
	if r := tabOf(t, opened)["automation_route"]; r != string(protocol.RouteTabOnly) {
		t.Fatalf("chrome://version route %v", r)
	}
	list := listed(t, ok(t, s, protocol.MethodTabs, nil))
	if len(list) != 1 || list[0]["automation_route"] != string(protocol.RouteTabOnly) {
		t.Fatalf("listed %v", list)
	}
	// Page work on a browser page fails before any debugger or script runs.
	tab := handleOf(t, opened)
	res := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeBrowserRestrictedOrigin)
	if res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("restricted snapshot outcome %v", res["outcome"])
	}
	rev, _ := list[0]["page_revision"].(float64)
	actRefused(t, s, tab, int64(rev), protocol.CodeBrowserRestrictedOrigin, 0, step("click", "ref", "e1"))
}
