package host

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// Off, browser_developer is refused before its arguments are read, and no
// task is made.
func TestDeveloperRefusedWhenPolicyOff(t *testing.T) {
	r := startRig(t)
	c := r.client()
	for _, params := range []any{protocol.DeveloperParams{Tab: "tab_x", Action: protocol.DeveloperEvaluate, Expression: "1"}, map[string]any{"bogus": 1}} {
		if e := callErr(t, c, protocol.MethodDeveloper, params); e.Code != protocol.CodeDeveloperModeDisabled || e.Outcome != protocol.OutcomeNotStarted {
			t.Fatalf("%v: %v", params, e)
		}
	}
	st := rpc[protocol.StatusResult](t, c, protocol.MethodStatus, nil)
	if st.DeveloperMode || st.TaskID != "" || len(st.Tasks) != 0 {
		t.Fatalf("status after refusals: %+v", st)
	}
	if h := rpc[protocol.HelloResult](t, c, protocol.MethodHello, protocol.HelloParams{}); h.DeveloperMode {
		t.Fatal("hello says developer_mode with the policy off")
	}
}

// On: arguments are checked, another task's tab is not_owned, and a call
// that ran marks the task in status and in the look the extension gets.
func TestDeveloperChecksAndMarks(t *testing.T) {
	r, c, tab := developerRig(t)
	if h := rpc[protocol.HelloResult](t, c.Client, protocol.MethodHello, protocol.HelloParams{}); !h.DeveloperMode {
		t.Fatal("hello does not say developer_mode")
	}
	for _, p := range []protocol.DeveloperParams{
		{Tab: tab, Action: "inject"},
		{Tab: tab, Action: protocol.DeveloperCDP, Method: "getDocument"},
		{Tab: tab, Action: protocol.DeveloperCDP, Method: "Target.createTarget"},
		{Tab: tab, Action: protocol.DeveloperCDP, Method: "Browser.close"},
		{Tab: tab, Action: protocol.DeveloperCDP, Method: "DOM.getDocument", Expression: "1"},
		{Tab: tab, Action: protocol.DeveloperEvaluate},
		{Tab: tab, Action: protocol.DeveloperEvaluate, Expression: strings.Repeat("x", protocol.MaxDeveloperInput+1)},
		{Tab: tab, Action: protocol.DeveloperCDP, Method: "Runtime.evaluate", Params: map[string]any{"expression": strings.Repeat("x", protocol.MaxDeveloperInput)}},
	} {
		if e := callErr(t, c.Client, protocol.MethodDeveloper, p); e.Code != protocol.CodeInvalidParams {
			t.Errorf("%s %s: %v", p.Action, p.Method, e)
		}
	}
	other := r.client()
	if e := callErr(t, other, protocol.MethodDeveloper, protocol.DeveloperParams{Tab: tab, Action: protocol.DeveloperEvaluate, Expression: "1"}); e.Code != protocol.CodeNotOwned || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("another task: %v", e)
	}
	st := rpc[protocol.StatusResult](t, other, protocol.MethodStatus, nil)
	for _, task := range st.Tasks {
		if task.Developer {
			t.Fatalf("marked before any call ran: %+v", st.Tasks)
		}
	}
	res := rpc[protocol.DeveloperResult](t, c.Client, protocol.MethodDeveloper, protocol.DeveloperParams{Tab: tab, Action: protocol.DeveloperEvaluate, Expression: "document.title"})
	if res.Outcome != protocol.OutcomeConfirmed || res.Tab != tab {
		t.Fatalf("evaluate: %+v", res)
	}
	st = rpc[protocol.StatusResult](t, other, protocol.MethodStatus, nil)
	marked := 0
	for _, task := range st.Tasks {
		if task.Developer {
			marked++
		}
	}
	if !st.DeveloperMode || marked != 1 {
		t.Fatalf("status: %+v", st)
	}
	// The task's next open carries the mark in its look.
	rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/2", Mode: "create"})
	if p := string(r.ext.lastParams(protocol.NativeOpen)); !strings.Contains(p, `"developer":true`) {
		t.Fatalf("the open's look: %s", p)
	}
}

// Developer mode does not lift the user's managed limits nor reach past
// the tab: every refused domain and method is invalid_params before the
// extension is asked, whatever the policy's lists.
func TestDeveloperRefusesWhatLiftsManagedLimits(t *testing.T) {
	r, c, tab := developerRig(t)
	methods := slices.Clone(protocol.DeveloperRefusedMethods)
	for _, domain := range protocol.DeveloperRefusedDomains {
		methods = append(methods, domain+".enable", domain+".disable")
	}
	methods = append(methods, "Fetch.continueRequest", "Fetch.fulfillRequest", "Fetch.failRequest", "Storage.getCookies")
	for _, m := range methods {
		e := callErr(t, c.Client, protocol.MethodDeveloper, protocol.DeveloperParams{Tab: tab, Action: protocol.DeveloperCDP, Method: m})
		if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || !strings.Contains(e.Message, "managed policy") {
			t.Errorf("%s: %v", m, e)
		}
	}
	if n := count(r.ext.seen(), protocol.NativeDeveloper); n != 0 {
		t.Fatalf("the extension was asked %d times", n)
	}
	// What stays the page's own reach goes through: navigation (the origin
	// guard sees it) and the page's own DOM and network events.
	for _, m := range []string{"Page.navigate", "Network.enable", "DOM.getDocument", "Page.reload"} {
		rpc[protocol.DeveloperResult](t, c.Client, protocol.MethodDeveloper, protocol.DeveloperParams{Tab: tab, Action: protocol.DeveloperCDP, Method: m})
	}
}

// developerResultCanary is what the fake extension answers an evaluation.
const developerResultCanary = "dev-result-canary-4e1b"

// A replay answers that the call ran without its result: page data an
// agent evaluated (a cookie, a filled password) is in no file under the
// state directory.
func TestDeveloperReplayKeepsNoResult(t *testing.T) {
	r, c, tab := developerRig(t)
	p := protocol.DeveloperParams{Tab: tab, Action: protocol.DeveloperEvaluate, Expression: "document.cookie", IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000d1"}
	first := rpc[protocol.DeveloperResult](t, c.Client, protocol.MethodDeveloper, p)
	if v, _ := first.Result.(map[string]any); v["value"] != developerResultCanary {
		t.Fatalf("first answer: %+v", first)
	}
	again := rpc[protocol.DeveloperResult](t, c.Client, protocol.MethodDeveloper, p)
	if want := (protocol.DeveloperResult{Tab: tab, Outcome: protocol.OutcomeConfirmed, Replay: true}); !reflect.DeepEqual(again, want) {
		t.Errorf("replay %+v, want %+v", again, want)
	}
	if n := count(r.ext.seen(), protocol.NativeDeveloper); n != 1 {
		t.Errorf("the extension ran %d evaluations, want 1", n)
	}
	noCanaryUnder(t, string(r.dir), developerResultCanary)
}

// developerRig starts a host whose policy enables Developer mode, with one
// task owning one tab.
func developerRig(t *testing.T) (*rig, *rigClient, string) {
	t.Helper()
	dir := tempStateDir(t)
	if err := os.WriteFile(dir.Policy(), []byte(`{"developer_mode":{"enabled":true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRig(t, withDir(dir))
	c, tab := openOneAt(t, r, "https://example.com/")
	return r, c, tab
}
