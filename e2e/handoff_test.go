package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// handoffMessage is the agent's message to the user: the popup shows it,
// and nothing of AgentTab's own state (audit, host log, database) holds it.
const handoffMessage = "Please solve the puzzle, handoff-canary-7f3a"

func handoff(t testing.TB, s *mcp.ClientSession, args map[string]any) map[string]any {
	t.Helper()
	return ok(t, s, protocol.MethodHandoff, args)
}

func noticeOf(t testing.TB, res map[string]any) (id string, notice map[string]any) {
	t.Helper()
	notice, _ = res["notice"].(map[string]any)
	id, _ = notice["notice_id"].(string)
	if id == "" {
		t.Fatalf("handoff answered no notice: %v", res)
	}
	return id, notice
}

// Spec 000/001, shown headful (real windows and focus): a handoff records
// an advisory notice and returns at once; it never changes what the user
// sees; several tasks hold notices and keep working; a new request for the
// same tab replaces the notice, so a late resolve of the old one fails;
// the popup shows the task, origin, reason and message; its Open tab
// focuses exactly that tab, and while the user is on it AgentTab neither
// reads nor drives it (a wait begun before ends) and its agent cannot
// resolve the notice; finishing clears the task's notices; the message is
// in no file of AgentTab's state.
func TestHeadfulHandoffNotices(t *testing.T) {
	e := harness.StartHeadful(t)
	base := e.ServePages(map[string]string{"/a": page("Task A"), "/b": page("Task B"), "/mine": page("Mine")})
	e.Eval(t, fmt.Sprintf(`chrome.tabs.create({url: %q, active: true}).then(() => true)`, base+"/mine"), nil)
	var user harness.UserView
	e.WaitFor(t, "the user's tab to be active in the focused window", 10*time.Second, func() bool {
		user = e.ReadUserView(t)
		return user.Focused.ID != 0 && strings.Contains(user.X.Title, "Mine")
	})
	mine := chromeTabByURL(t, e, base+"/mine")

	a, b := e.MCP(t), e.MCP(t)
	tabA := handleOf(t, ok(t, a, protocol.MethodOpen, map[string]any{"url": base + "/a"}))
	tabB := handleOf(t, ok(t, b, protocol.MethodOpen, map[string]any{"url": base + "/b"}))
	settings := handleOf(t, ok(t, a, protocol.MethodOpen, map[string]any{"url": "chrome://settings/"}))

	first, notice := noticeOf(t, handoff(t, a, map[string]any{"action": "request", "tab": tabA, "reason": "captcha", "message": handoffMessage}))
	if notice["state"] != string(protocol.NoticeOpen) || notice["origin"] != base || notice["tab"] != tabA {
		t.Fatalf("the notice: %v, want open on %s with origin %s", notice, tabA, base)
	}
	noticeB, _ := noticeOf(t, handoff(t, b, map[string]any{"action": "request", "tab": tabB, "reason": "passkey"}))
	// Handoff needs no page access: it works on a tab_only tab.
	noticeOf(t, handoff(t, a, map[string]any{"action": "request", "tab": settings, "reason": "verification"}))
	e.WaitFor(t, "the badge to count three notices", 5*time.Second, func() bool { return badge(t, e) == "3" })
	if got := e.ReadUserView(t); got.Focused != user.Focused || got.Active[user.Focused.ID] != mine.ID || got.X != user.X {
		t.Fatalf("a handoff changed the user's view: before %+v, after %+v", user, got)
	}

	// Notices gate nothing: both tasks keep working on their noticed tabs.
	snap(t, a, tabA, nil)
	snap(t, b, tabB, nil)

	second, _ := noticeOf(t, handoff(t, a, map[string]any{"action": "request", "tab": tabA, "reason": "captcha", "message": handoffMessage}))
	if second == first {
		t.Fatalf("a new request kept the notice id %s", first)
	}
	refused(t, a, protocol.MethodHandoff, map[string]any{"action": "resolve", "tab": tabA, "notice_id": first}, protocol.CodeNoticeNotFound)
	refused(t, b, protocol.MethodHandoff, map[string]any{"action": "resolve", "tab": tabA, "notice_id": second}, protocol.CodeNotOwned)
	// user_idle_state is chrome.idle's coarse state: the test locks the
	// X screen (the screen saver, as a locked session reads to Chrome) and
	// unlocks it.
	idleState := func() string {
		v, _ := handoff(t, a, map[string]any{"action": "status"})["user_idle_state"].(string)
		return v
	}
	e.UserActs(t)
	if got := idleState(); got != string(protocol.IdleActive) {
		t.Fatalf("status after user input: user_idle_state %q, want active", got)
	}
	e.LockScreen(t)
	if got := idleState(); got != string(protocol.IdleLocked) {
		t.Fatalf("status with the screen locked: user_idle_state %q, want locked", got)
	}
	e.UnlockScreen(t)
	e.UserActs(t)

	// A text wait that began before the user comes onto the tab ends
	// handoff_in_progress as soon as they do (every poll rechecks), well
	// before its timeout.
	waiting := harness.CallToolAsync(a, protocol.MethodWait, map[string]any{"tab": tabA, "until": "text", "text": "never on this page", "timeout_ms": 30000})
	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, "handoff-canary-7f3a", 5*time.Second)
	if shown := popup.Text(t); !strings.Contains(shown, "127.0.0.1") {
		t.Errorf("the popup's notice does not show the origin:\n%s", shown)
	}
	popup.Click(t, `#notices [data-notice="`+second+`"] button.open-tab`)
	taskTab := chromeTabByURL(t, e, base+"/a")
	e.WaitFor(t, "Open tab to show the noticed tab in the focused window", 5*time.Second, func() bool {
		v := e.ReadUserView(t)
		return v.Focused.ID != 0 && v.Active[v.Focused.ID] == taskTab.ID
	})
	popup.Close()
	select {
	case w := <-waiting:
		if w.Err != nil || !w.IsError || w.Result["code"] != string(protocol.CodeHandoffInProgress) || w.Result["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Fatalf("the wait that began before the handoff: %v %v, want handoff_in_progress, not_started", w.Err, w.Result)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait that began before the handoff still polls the tab the user is on")
	}

	// The user is on the tab: AgentTab neither reads nor drives it, nor
	// lets its agent close the notice (it cannot have verified the page);
	// the other task works on.
	r := refused(t, a, protocol.MethodSnapshot, map[string]any{"tab": tabA}, protocol.CodeHandoffInProgress)
	if r["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("snapshot during the handoff: %v", r)
	}
	r = refused(t, a, protocol.MethodHandoff, map[string]any{"action": "resolve", "tab": tabA, "notice_id": second}, protocol.CodeHandoffInProgress)
	if r["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("resolve during the handoff: %v", r)
	}
	snap(t, b, tabB, nil)
	// The user goes back to their own tab and tells the agent; the agent
	// verifies and resolves.
	e.Eval(t, fmt.Sprintf(`chrome.tabs.update(%d, {active: true}).then(() => true)`, mine.ID), nil)
	snap(t, a, tabA, nil)
	resolved := handoff(t, a, map[string]any{"action": "resolve", "tab": tabA, "notice_id": second})
	if _, n := noticeOf(t, resolved); n["state"] != string(protocol.NoticeResolved) {
		t.Fatalf("resolve: %v", resolved)
	}

	ok(t, a, protocol.MethodFinish, map[string]any{"close_tabs": true})
	e.WaitFor(t, "the badge to count B's notice only", 5*time.Second, func() bool { return badge(t, e) == "1" })
	// The popup's Dismiss only hides the reminder: the notice stays open
	// for its agent, which still resolves or dismisses it.
	popup = e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, "Open tab", 5*time.Second)
	popup.Click(t, `#notices [data-notice="`+noticeB+`"] button.dismiss`)
	popup.Close()
	e.WaitFor(t, "the badge to clear", 5*time.Second, func() bool { return badge(t, e) == "" })
	hidden := handoff(t, b, map[string]any{"action": "status", "tab": tabB})
	if ns, _ := hidden["notices"].([]any); len(ns) != 1 || ns[0].(map[string]any)["state"] != string(protocol.NoticeOpen) || ns[0].(map[string]any)["hidden_by_user"] != true {
		t.Fatalf("status after the popup's Dismiss: %v, want the notice open and hidden_by_user", hidden)
	}
	handoff(t, b, map[string]any{"action": "dismiss", "tab": tabB, "notice_id": noticeB})
	noSecretInState(t, e, "", "handoff-canary-7f3a")
}
