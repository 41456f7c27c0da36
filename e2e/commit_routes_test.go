package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// routesPage is reviewPage (commit_review_test.go) with a page timer that
// renames Send once the server says so (/flag), without any input from
// the agent, and a place for another document's extra markup.
const routesPage = `<!doctype html><title>Compose</title>
<form onsubmit="event.preventDefault(); hit('send')">
<label>To <input name="to"></label>
<button type="submit" id="send">Send</button>
</form>
<button onclick="hit('next')">Next</button>
<script>
function hit(k) {
  const x = new XMLHttpRequest();
  x.open('POST', '/hit?k=' + k, false);
  x.send();
}
setInterval(async () => {
  const r = await fetch('/flag');
  const want = await r.text();
  const send = document.getElementById('send');
  if (want === 'rename' && send.textContent === 'Send') { send.textContent = 'Send now'; hit('renamed'); }
  if (want === 'replace' && !send.dataset.copy) { const b = send.cloneNode(true); b.dataset.copy = '1'; send.replaceWith(b); hit('replaced'); }
}, 200);
</script>`

// routesCounter serves routesPage (with extra appended) and counts its
// effects; flag is what the page's timer reads.
type routesCounter struct {
	hitCounter
	extra string
	flag  string
	fmu   sync.Mutex
}

func newRoutesCounter(extra string) *routesCounter {
	return &routesCounter{hitCounter: hitCounter{hits: map[string]int{}}, extra: extra}
}

func (c *routesCounter) setFlag(v string) { c.fmu.Lock(); c.flag = v; c.fmu.Unlock() }

func (c *routesCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, routesPage+c.extra)
	case "/flag":
		c.fmu.Lock()
		defer c.fmu.Unlock()
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, c.flag)
	default:
		c.hitCounter.ServeHTTP(w, r)
	}
}

// routesTab is routesPage (with extra appended) open in a task's tab,
// snapshotted, with YOLO mode off.
type routesTab struct {
	e    *harness.Env
	fx   *routesCounter
	s    *mcp.ClientSession
	tab  string
	text string
	rev  int64
	refs map[string]string
}

func openRoutes(t *testing.T, extra string) routesTab {
	t.Helper()
	r := routesTab{e: harness.Start(t), fx: newRoutesCounter(extra)}
	base := r.e.Serve(r.fx)
	r.s = r.e.MCP(t)
	setYolo(t, r.e, false)
	r.tab = handleOf(t, ok(t, r.s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	r.text, r.rev, _ = snap(t, r.s, r.tab, nil)
	r.refs = routesRefs(t, r.text)
	return r
}

// routesRefs answers the refs of To, Send and Next in a snapshot of routesPage.
func routesRefs(t *testing.T, text string) map[string]string {
	t.Helper()
	return map[string]string{
		"to":   refOf(t, text, "textbox", "To"),
		"send": refOf(t, text, "button", "Send"),
		"next": refOf(t, text, "button", "Next"),
	}
}

// Commit review on the scripting route: where Chrome refuses the
// debugger and automation is on, a batch stops at the staged Send (the
// receipt says the scripting route served it), Next never runs, the popup
// approves, and browser_commit runs Send once on the same route.
func TestCommitRoutesStagingOnTheScriptingRoute(t *testing.T) {
	e, blocker := blockedPage(t)
	fx := newRoutesCounter(blocker)
	base := e.Serve(fx)
	s := e.MCP(t)
	setYolo(t, e, false)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDebuggerUnavailable)
	setAutomation(t, e, true)

	text, rev, res := snap(t, s, tab, nil)
	if res["served_by"] != protocol.RouteScripting {
		t.Fatalf("snapshot served_by %v, want the scripting route", res["served_by"])
	}
	refs := routesRefs(t, text)
	res = act(t, s, tab, rev,
		step("fill", "ref", refs["to"], "text", "ada@example.com"),
		step("click", "ref", refs["send"]),
		step("click", "ref", refs["next"]))
	steps := stepsOf(res)
	if res["outcome"] != string(protocol.OutcomeStaged) || len(steps) != 3 || steps[1]["outcome"] != string(protocol.OutcomeStaged) || steps[2]["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("act on the scripting route with YOLO off: %v, want Send staged and Next not_started", res)
	}
	if steps[1]["served_by"] != protocol.RouteScripting {
		t.Errorf("the staged receipt %v does not say the scripting route served it", steps[1])
	}
	info, _ := steps[1]["stage"].(map[string]any)
	stage, _ := info["stage"].(string)
	fx.want(t, "after staging", map[string]int{"send": 0, "next": 0})

	reviewFirstStage(t, e, popupApprove)
	fx.want(t, "after approval", map[string]int{"send": 0, "next": 0})
	got := ok(t, s, protocol.MethodCommit, commitArgs(stage))
	st, _ := got["step"].(map[string]any)
	if got["effect"] != string(protocol.EffectSend) || st["served_by"] != protocol.RouteScripting || got["outcome"] == string(protocol.OutcomeNotStarted) {
		t.Fatalf("commit on the scripting route: %v", got)
	}
	fx.want(t, "after the commit", map[string]int{"send": 1, "next": 0})
}

// A stage whose target the page changed by itself after approval (its
// own timer renames Send; the agent gives no input) is refused at commit
// stage_target_changed, not_started, and nothing is sent; so is one whose
// form the agent filled differently after approval (fill is never
// classified, so this works whatever YOLO mode says): the commit
// recomputes the preview, which is no longer the one the human saw.
func TestCommitRoutesTargetChangedAfterApproval(t *testing.T) {
	r := openRoutes(t, "")
	e, fx, s, tab, text, rev, refs := r.e, r.fx, r.s, r.tab, r.text, r.rev, r.refs
	stage := stageSend(t, s, &fx.hitCounter, tab, rev, refs)
	reviewFirstStage(t, e, popupApprove)

	fx.setFlag("rename")
	e.WaitFor(t, "the page to rename Send", 10*time.Second, func() bool { return fx.counts()["renamed"] == 1 })
	changedRefusal(t, e, s, stage)
	fx.want(t, "after the refused commit", map[string]int{"send": 0, "next": 0})
	// The refused commit took the stage: a second try says so, and runs nothing.
	refused(t, s, protocol.MethodCommit, commitArgs(stage), protocol.CodeStageConsumed)
	fx.want(t, "after a second try", map[string]int{"send": 0})

	// Staged with To=ada, approved, then To filled with another address.
	text, rev, _ = snap(t, s, tab, nil)
	stageSendNow := func() string {
		t.Helper()
		res := act(t, s, tab, rev, step("fill", "ref", refs["to"], "text", "ada@example.com"), step("click", "ref", refOf(t, text, "button", "Send now")))
		info, _ := stepsOf(res)[1]["stage"].(map[string]any)
		id, _ := info["stage"].(string)
		if id == "" {
			t.Fatalf("Send now was not staged: %v", res)
		}
		reviewFirstStage(t, e, popupApprove)
		return id
	}
	filled := stageSendNow()
	if st := stepsOf(act(t, s, tab, rev, step("fill", "ref", refs["to"], "text", "mallory@example.com")))[0]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("fill To after the approval: %v", st)
	}
	changedRefusal(t, e, s, filled)
	fx.want(t, "after the refused commit of a refilled form", map[string]int{"send": 0, "next": 0})

	// The page replaces the button by an identical copy: the staged
	// element is gone, so the stage's target changed too.
	again := stageSendNow()
	fx.setFlag("replace")
	e.WaitFor(t, "the page to replace Send", 10*time.Second, func() bool { return fx.counts()["replaced"] == 1 })
	changedRefusal(t, e, s, again)
	fx.want(t, "after the refused commit of a replaced button", map[string]int{"send": 0, "next": 0})

	// Any step on the replaced element's ref is refused by its own checks
	// (the challenge guard does not turn it into an internal error).
	setYolo(t, e, true)
	actRefused(t, s, tab, rev, protocol.CodeTargetNotActionable, 0, step("click", "ref", refOf(t, text, "button", "Send now")))
	fx.want(t, "after a click on the replaced element", map[string]int{"send": 0})
}

// chatBox is a composer that sends on Enter (a keydown handler, no form),
// as chat sites do, next to its Send button.
const chatBox = `<div><textarea aria-label="Chat" onkeydown="if (event.key === 'Enter') { event.preventDefault(); hit('chat'); }"></textarea>
<button type="button" aria-label="Send message" onclick="hit('chat')">&gt;</button></div>`

// Keys that send are staged however they are given, with YOLO mode off:
// Enter to the focused element (a press without a ref) after filling To,
// and a type step whose text ends in a line break into a chat composer
// (the break is a real Enter there). Nothing is sent until each stage is
// approved and committed, which then sends once.
func TestCommitRoutesKeysThatSend(t *testing.T) {
	r := openRoutes(t, chatBox)
	e, fx, s, tab, text, rev, refs := r.e, r.fx, r.s, r.tab, r.text, r.rev, r.refs

	stageOf := func(res map[string]any, at int) string {
		t.Helper()
		steps := stepsOf(res)
		info, _ := steps[at]["stage"].(map[string]any)
		id, _ := info["stage"].(string)
		if res["outcome"] != string(protocol.OutcomeStaged) || steps[at]["outcome"] != string(protocol.OutcomeStaged) || info["effect"] != string(protocol.EffectSend) || id == "" {
			t.Fatalf("step %d was not staged as send: %v", at, res)
		}
		return id
	}
	enter := stageOf(act(t, s, tab, rev, step("fill", "ref", refs["to"], "text", "ada@example.com"), step("press", "keys", "Enter")), 1)
	fx.want(t, "after a staged Enter to the focused field", map[string]int{"send": 0})
	// The badge counts the stage waiting for review (review/reviews.ts pending()), and no longer once it is approved.
	e.WaitFor(t, "the badge to count the stage", 5*time.Second, func() bool { return badge(t, e) == "1" })
	reviewFirstStage(t, e, popupApprove)
	e.WaitFor(t, "the badge to clear", 5*time.Second, func() bool { return badge(t, e) == "" })
	if got := ok(t, s, protocol.MethodCommit, commitArgs(enter)); got["outcome"] == string(protocol.OutcomeNotStarted) {
		t.Fatalf("commit of Enter: %v", got)
	}
	e.WaitFor(t, "the committed Enter to send", 5*time.Second, func() bool { return fx.counts()["send"] == 1 })

	chat := stageOf(act(t, s, tab, rev, step("type", "ref", refOf(t, text, "textbox", "Chat"), "text", "lunch?\n")), 0)
	fx.want(t, "after a staged line break", map[string]int{"chat": 0})
	reviewFirstStage(t, e, popupApprove)
	if got := ok(t, s, protocol.MethodCommit, commitArgs(chat)); got["outcome"] == string(protocol.OutcomeNotStarted) {
		t.Fatalf("commit of the typed line: %v", got)
	}
	fx.want(t, "after the commit", map[string]int{"chat": 1, "send": 1})
}

// changedRefusal commits stage and checks what the agent sees: a failed
// commit (isError) whose error is stage_target_changed, not_started,
// with the recovery to snapshot and stage again; and that the popup's
// entry for it went.
func changedRefusal(t *testing.T, e *harness.Env, s *mcp.ClientSession, stage string) {
	t.Helper()
	r := refusedAny(t, s, protocol.MethodCommit, commitArgs(stage))
	perr, _ := r["error"].(map[string]any)
	if perr == nil {
		perr = r // a top-level refusal
	}
	if perr["code"] != string(protocol.CodeStageTargetChanged) || r["outcome"] != string(protocol.OutcomeNotStarted) || perr["recovery"] == "" {
		t.Fatalf("commit after the target changed: %v, want stage_target_changed, not_started", r)
	}
	t.Logf("the agent sees: %v", r)
	var stored []map[string]any
	e.Eval(t, `chrome.storage.local.get("stages").then(v => v.stages ?? [])`, &stored)
	if len(stored) != 0 {
		t.Errorf("the popup still lists the refused stage: %v", stored)
	}
}

// Enter in the To field of a form whose default button is Send submits
// it: with YOLO mode off that press is staged (effect send) and nothing is
// sent; with YOLO mode on it runs.
func TestCommitRoutesEnterInAFormField(t *testing.T) {
	r := openRoutes(t, "")
	e, fx, s, tab, rev, refs := r.e, r.fx, r.s, r.tab, r.rev, r.refs

	res := act(t, s, tab, rev, step("fill", "ref", refs["to"], "text", "ada@example.com"), step("press", "ref", refs["to"], "keys", "Enter"), step("click", "ref", refs["next"]))
	steps := stepsOf(res)
	stage, _ := steps[1]["stage"].(map[string]any)
	if res["outcome"] != string(protocol.OutcomeStaged) || steps[1]["outcome"] != string(protocol.OutcomeStaged) || stage["effect"] != string(protocol.EffectSend) || steps[2]["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("Enter in To with YOLO off: %v, want staged (send), Next not_started", res)
	}
	fx.want(t, "after a staged Enter", map[string]int{"send": 0, "next": 0})

	setYolo(t, e, true)
	res = act(t, s, tab, rev, step("press", "ref", refs["to"], "keys", "Enter"))
	if st := stepsOf(res)[0]; st["outcome"] == string(protocol.OutcomeStaged) || st["stage"] != nil {
		t.Fatalf("Enter with YOLO on was staged: %v", res)
	}
	fx.want(t, "Enter with YOLO on", map[string]int{"send": 1})
}

// auditLines reads STATE/audit.jsonl.
func auditLines(t *testing.T, e *harness.Env) (raw string, recs []map[string]any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return string(data), recs
}

// The audit of a stage, its approval, its commit and a handoff request:
// one record per Core call, an event.approval record, and none of the
// preview (To's value), the message, the reason, the review handle or the
// control's name in any file of AgentTab's state.
func TestCommitRoutesAudit(t *testing.T) {
	r := openRoutes(t, "")
	e, fx, s, tab, rev, refs := r.e, r.fx, r.s, r.tab, r.rev, r.refs
	stage := stageSend(t, s, &fx.hitCounter, tab, rev, refs)

	var stored []map[string]any
	e.Eval(t, `chrome.storage.local.get("stages").then(v => v.stages ?? [])`, &stored)
	if len(stored) != 1 {
		t.Fatalf("the popup's stages in storage: %v, want one", stored)
	}
	handle, _ := stored[0]["handle"].(string)
	if len(handle) < 32 {
		t.Fatalf("the stored stage has no review handle: %v", stored[0])
	}
	reviewFirstStage(t, e, popupApprove)
	ok(t, s, protocol.MethodCommit, commitArgs(stage))
	const message = "Recover the account, audit-canary-51c"
	handoff(t, s, map[string]any{"action": "request", "tab": tab, "reason": "account_recovery", "message": message})
	fx.want(t, "after the commit", map[string]int{"send": 1})

	raw, recs := auditLines(t, e)
	counts := map[string]int{}
	for _, r := range recs {
		m, _ := r["method"].(string)
		counts[m]++
	}
	for _, m := range []string{protocol.MethodAct, protocol.MethodCommit, protocol.MethodHandoff, "event.approval"} {
		if counts[m] != 1 {
			t.Errorf("audit has %d %s records, want 1 (all: %v)", counts[m], m, counts)
		}
	}
	t.Logf("audit records: %v", counts)
	for _, r := range recs {
		if m, _ := r["method"].(string); m == "event.approval" || m == protocol.MethodCommit || m == protocol.MethodHandoff {
			line, _ := json.Marshal(r)
			t.Logf("%s", line)
		}
	}
	for _, secret := range []string{"ada@example.com", message, "audit-canary", "account_recovery", handle, `"Send"`} {
		if strings.Contains(raw, secret) {
			t.Errorf("audit.jsonl holds %q", secret)
		}
	}
	noSecretInState(t, e, "", "ada@example.com", "audit-canary", handle)
	// The control's name: not in the audit; where else it lies, reported.
	filepath.WalkDir(e.StateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, word := range []string{"account_recovery", `"Send"`} {
			if strings.Contains(string(data), word) {
				t.Logf("%s holds %s", path, word)
			}
		}
		return nil
	})
}

// The MCP tool list names browser_commit and browser_handoff with
// descriptions that teach their flow.
func TestCommitRoutesToolList(t *testing.T) {
	e := harness.Start(t, harness.Unlaunched())
	s := e.MCP(t)
	tools, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		protocol.MethodCommit:  {"staged", "Approve", "browser_commit", "stage_not_approved", "stage_target_changed"},
		protocol.MethodHandoff: {"request", "resolve", "notice_id", "handoff_in_progress", "challenge"},
	}
	for _, tool := range tools.Tools {
		for _, w := range want[tool.Name] {
			if !strings.Contains(tool.Description, w) {
				t.Errorf("%s's description does not mention %q", tool.Name, w)
			}
		}
		delete(want, tool.Name)
	}
	if len(want) != 0 {
		t.Errorf("the tool list lacks %v", want)
	}
}
