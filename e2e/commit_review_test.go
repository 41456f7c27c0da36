package e2e

import (
	"fmt"
	"maps"
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

// reviewPage is a mail form whose buttons report to the server with a
// synchronous request, so the server has counted an effect before the
// click's receipt exists: Send (a recognised send effect) and Next (not
// consequential), which the batches put after Send.
const reviewPage = `<!doctype html><title>Compose</title>
<form onsubmit="event.preventDefault(); hit('send')">
<label>To <input name="to"></label>
<label>Password <input type="password" name="pw" value="review-canary-pw"></label>
<button type="submit">Send</button>
</form>
<button onclick="hit('next')">Next</button>
<a href="/other">Elsewhere</a>
<script>
function hit(k) {
  const x = new XMLHttpRequest();
  x.open('POST', '/hit?k=' + k, false);
  x.send();
}
</script>`

// hitCounter serves reviewPage and counts its effects.
type hitCounter struct {
	mu   sync.Mutex
	hits map[string]int
}

func (c *hitCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/", "/other":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, reviewPage)
	case "/hit":
		c.mu.Lock()
		c.hits[r.URL.Query().Get("k")]++
		c.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func (c *hitCounter) counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.hits)
}

func (c *hitCounter) want(t testing.TB, when string, want map[string]int) {
	t.Helper()
	got := c.counts()
	for k, n := range want {
		if got[k] != n {
			t.Fatalf("%s: the page counted %v, want %s=%d", when, got, k, n)
		}
	}
}

// reviewTab opens reviewPage for s and answers its handle, revision and
// the refs of To, Send, Next and Elsewhere.
func reviewTab(t *testing.T, s *mcp.ClientSession, base string) (tab string, rev int64, refs map[string]string) {
	t.Helper()
	tab = handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	return tab, rev, map[string]string{
		"to":   refOf(t, text, "textbox", "To"),
		"send": refOf(t, text, "button", "Send"),
		"next": refOf(t, text, "button", "Next"),
		"away": refOf(t, text, "link", "Elsewhere"),
	}
}

// stageSend runs fill To, click Send, click Next with YOLO mode off: the
// batch stops at Send, staged, and Next never runs. It answers the stage id.
func stageSend(t *testing.T, s *mcp.ClientSession, fx *hitCounter, tab string, rev int64, refs map[string]string) string {
	t.Helper()
	res := act(t, s, tab, rev,
		step("fill", "ref", refs["to"], "text", "ada@example.com"),
		step("click", "ref", refs["send"]),
		step("click", "ref", refs["next"]))
	steps := stepsOf(res)
	if res["outcome"] != string(protocol.OutcomeStaged) || len(steps) != 3 {
		t.Fatalf("act with YOLO off: %v, want outcome staged", res)
	}
	if steps[1]["outcome"] != string(protocol.OutcomeStaged) || steps[2]["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("act receipts %v, want Send staged and Next not_started", steps)
	}
	stage, _ := steps[1]["stage"].(map[string]any)
	id, _ := stage["stage"].(string)
	if !strings.HasPrefix(id, "stg_") || stage["effect"] != string(protocol.EffectSend) {
		t.Fatalf("staged receipt %v, want a stage id and effect send", steps[1])
	}
	fx.want(t, "after staging", map[string]int{"send": 0, "next": 0})
	return id
}

func commitArgs(stage string) map[string]any { return map[string]any{"stage": stage} }

// Review mode end to end: a batch stops at the staged Send (Next not run);
// the stage waits for the user; another task cannot commit it; approval in
// the real popup dispatches nothing; a SIGKILLed host between approval and
// commit changes nothing; browser_commit then runs it exactly once, and a
// second commit is refused while the same key replays.
func TestCommitReviewStagesApprovesAndCommitsOnce(t *testing.T) {
	e := harness.Start(t)
	fx := &hitCounter{hits: map[string]int{}}
	base := e.Serve(fx)
	s := e.MCP(t)
	setYolo(t, e, false)
	tab, rev, refs := reviewTab(t, s, base)
	stage := stageSend(t, s, fx, tab, rev, refs)

	if r := refused(t, s, protocol.MethodCommit, commitArgs(stage), protocol.CodeStageNotApproved); r["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("commit before approval: %v", r)
	}
	refused(t, e.MCP(t), protocol.MethodCommit, commitArgs(stage), protocol.CodeStageNotFound)
	fx.want(t, "after refused commits", map[string]int{"send": 0})

	// A notice beside the stage, so that the popup shows both (and the
	// docs' screenshot does).
	handoff(t, s, map[string]any{"action": "request", "tab": tab, "reason": "payment", "message": "Enter the card's security code"})
	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, "ada@example.com", 5*time.Second)
	popup.WaitText(t, "security code", 5*time.Second)
	shown := popup.Text(t)
	// docs/img/popup-review.png is refreshed on request, never by a plain test run.
	if os.Getenv("AGENTTAB_DOCS_SCREENSHOTS") == "1" {
		if err := os.WriteFile(filepath.Join("..", "docs", "img", "popup-review.png"), popup.Screenshot(t), 0o644); err != nil {
			t.Errorf("docs screenshot: %v", err)
		}
	}
	for _, want := range []string{"Send", "127.0.0.1"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the popup's review does not show %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "review-canary-pw") {
		t.Errorf("the popup's review shows the password field's value:\n%s", shown)
	}
	popup.Click(t, popupApprove)
	popup.WaitText(t, "approved", 5*time.Second)
	popup.Close()
	time.Sleep(300 * time.Millisecond)
	fx.want(t, "after approval", map[string]int{"send": 0, "next": 0})

	// Approval is durable in the host's database: a host killed now
	// comes back (Chrome restarts it on the extension's reconnect) and the
	// stage still commits, once.
	e.KillHost(t)
	key := "commit-key-1"
	args := map[string]any{"stage": stage, "idempotency_key": key}
	res := ok(t, s, protocol.MethodCommit, args)
	if res["effect"] != string(protocol.EffectSend) || res["outcome"] == string(protocol.OutcomeNotStarted) {
		t.Fatalf("commit: %v", res)
	}
	fx.want(t, "after the commit", map[string]int{"send": 1, "next": 0})
	if again := ok(t, s, protocol.MethodCommit, args); again["replay"] != true {
		t.Fatalf("the same key again: %v, want the recorded result replayed", again)
	}
	refused(t, s, protocol.MethodCommit, commitArgs(stage), protocol.CodeStageConsumed)
	fx.want(t, "after a second commit", map[string]int{"send": 1, "next": 0})
	noSecretInState(t, e, "", "ada@example.com", "review-canary-pw")
}

// A stage is refused at commit, not_started, when the user denied it, when
// the tab navigated after approval, and when the user turned YOLO mode on
// (which discards stages); with YOLO on the same click then runs at once.
func TestCommitRefusals(t *testing.T) {
	e := harness.Start(t)
	fx := &hitCounter{hits: map[string]int{}}
	base := e.Serve(fx)
	s := e.MCP(t)
	setYolo(t, e, false)
	tab, rev, refs := reviewTab(t, s, base)

	denied := stageSend(t, s, fx, tab, rev, refs)
	reviewFirstStage(t, e, popupDeny)
	refused(t, s, protocol.MethodCommit, commitArgs(denied), protocol.CodeStageDenied)

	moved := stageSend(t, s, fx, tab, rev, refs)
	reviewFirstStage(t, e, popupApprove)
	act(t, s, tab, rev, step("click", "ref", refs["away"]))
	refused(t, s, protocol.MethodCommit, commitArgs(moved), protocol.CodeStageStale)
	fx.want(t, "after refused commits", map[string]int{"send": 0, "next": 0})

	_, rev, _ = snap(t, s, tab, nil)
	text, _, _ := snap(t, s, tab, nil)
	refs["send"] = refOf(t, text, "button", "Send")
	refs["to"] = refOf(t, text, "textbox", "To")
	refs["next"] = refOf(t, text, "button", "Next")
	discarded := stageSend(t, s, fx, tab, rev, refs)
	reviewFirstStage(t, e, popupApprove)
	setYolo(t, e, true)
	refused(t, s, protocol.MethodCommit, commitArgs(discarded), protocol.CodeStageDiscarded)
	fx.want(t, "after a discarded stage", map[string]int{"send": 0})

	res := act(t, s, tab, rev, step("click", "ref", refs["send"]))
	if st := stepsOf(res)[0]; st["outcome"] == string(protocol.OutcomeStaged) || st["stage"] != nil {
		t.Fatalf("with YOLO on the click was staged: %v", res)
	}
	fx.want(t, "a click with YOLO on", map[string]int{"send": 1})
}

// reviewFirstStage opens the popup and presses sel on its first stage.
func reviewFirstStage(t *testing.T, e *harness.Env, sel string) {
	t.Helper()
	popup := e.OpenExtensionPage(t, "popup.html")
	defer popup.Close()
	popup.WaitText(t, "Approve", 5*time.Second)
	popup.Click(t, sel)
	if sel == popupApprove {
		popup.WaitText(t, "approved", 5*time.Second)
		return
	}
	// A denied stage leaves the list once the host has recorded the denial.
	deadline := time.Now().Add(5 * time.Second)
	for popup.Count(t, popupDeny) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the denied stage is still listed:\n%s", popup.Text(t))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
