package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// adoptRound asks, through MCP, to adopt the user's tab userID (made active
// first, as if the user were looking at it), and answers the popup with
// click ("allow", "deny", or "" to let it time out).
func adoptRound(t *testing.T, e *harness.Env, s *mcp.ClientSession, userID int, timeoutMs int, click string) (map[string]any, bool) {
	t.Helper()
	e.Eval(t, "chrome.tabs.update("+strconv.Itoa(userID)+", {active: true}).then(() => null)", nil)
	type answer struct {
		res   map[string]any
		isErr bool
	}
	done := make(chan answer, 1)
	go func() {
		res, isErr := harness.CallTool(t, s, protocol.MethodOpen, map[string]any{"mode": "adopt_active", "timeout_ms": timeoutMs})
		done <- answer{res, isErr}
	}()
	e.WaitFor(t, "the badge of a pending request", 10*time.Second, func() bool {
		var badge string
		e.Eval(t, "chrome.action.getBadgeText({})", &badge)
		return badge == "1"
	})
	if click != "" {
		popup := e.OpenExtensionPage(t, "popup.html")
		popup.WaitText(t, "asks to work in", 5*time.Second)
		text := popup.Text(t)
		if !strings.Contains(text, `"Mine"`) || !strings.Contains(text, "127.0.0.1") || strings.Contains(text, "private-query") {
			t.Errorf("the popup's request reads %q, want the tab's title and origin only", text)
		}
		// docs/img/popup.png is refreshed on request, never by a plain test run.
		if click == "allow" && os.Getenv("AGENTTAB_DOCS_SCREENSHOTS") == "1" {
			if err := os.WriteFile(filepath.Join("..", "docs", "img", "popup.png"), popup.Screenshot(t), 0o644); err != nil {
				t.Errorf("docs screenshot: %v", err)
			}
		}
		popup.Click(t, "#adoptions ."+click)
		a := <-done
		popup.Close()
		return a.res, a.isErr
	}
	a := <-done
	return a.res, a.isErr
}

// browser_open {mode: "adopt_active"}: the user's current tab joins the
// task only when the user allows it in the popup; a denial or no answer is
// needs_user with nothing changed; an adopted tab is never closed by the
// task.
func TestAdoptActiveTab(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/mine": page("Mine")})
	var userID int
	e.Eval(t, `chrome.tabs.create({url: `+strconv.Quote(base+"/mine?private-query=1")+`, active: true}).then(t => t.id)`, &userID)
	e.WaitFor(t, "the user's tab to load", 10*time.Second, func() bool {
		tab, ok := findTab(e.ChromeTabs(t), userID)
		return ok && tab.Status == "complete"
	})

	s := e.MCP(t)
	for _, how := range []struct {
		click     string
		timeoutMs int
	}{{"deny", 15000}, {"", 300}} {
		res, isErr := adoptRound(t, e, s, userID, how.timeoutMs, how.click)
		if !isErr || res["code"] != string(protocol.CodeNeedsUser) || res["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Fatalf("adopt answered %q: %v, want needs_user", how.click, res)
		}
		if tab, _ := findTab(e.ChromeTabs(t), userID); tab.GroupID != -1 {
			t.Fatalf("after a refused adoption the user's tab is in group %d", tab.GroupID)
		}
	}

	res, isErr := adoptRound(t, e, s, userID, 15000, "allow")
	if isErr {
		t.Fatalf("allowed adoption failed: %v", res)
	}
	handle := handleOf(t, res)
	tab, _ := findTab(e.ChromeTabs(t), userID)
	if g, found := groupByID(t, e, tab.GroupID); !found || g.Title != taskOf(t, res)["label"] {
		t.Fatalf("the adopted tab is in group %+v, want the task's", g)
	}
	// The task works in it; another task cannot; finishing with close_tabs
	// leaves it open, ungrouped: it is the user's.
	if text, _, _ := snap(t, s, handle, nil); !strings.Contains(text, "Mine") {
		t.Errorf("snapshot of the adopted tab:\n%s", text)
	}
	refused(t, e.MCP(t), protocol.MethodSnapshot, map[string]any{"tab": handle}, protocol.CodeNotOwned)
	ok(t, s, protocol.MethodFinish, map[string]any{"close_tabs": true})
	e.WaitFor(t, "the adopted tab to leave the group", 5*time.Second, func() bool {
		tab, open := findTab(e.ChromeTabs(t), userID)
		return open && tab.GroupID == -1
	})
}

func findTab(tabs []harness.Tab, id int) (harness.Tab, bool) {
	for _, t := range tabs {
		if t.ID == id {
			return t, true
		}
	}
	return harness.Tab{}, false
}
