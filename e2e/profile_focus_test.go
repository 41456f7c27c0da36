package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// asList is v as a JSON array (nil when it is not one).
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// showUsersTab opens the user's own tab at url, shown as a user does
// (Ctrl+T in the window they are in), waits until X shows its title, and
// answers the user's view with that tab.
func showUsersTab(t testing.TB, e *harness.Env, url, title string) (harness.UserView, harness.Tab) {
	t.Helper()
	e.Eval(t, fmt.Sprintf(`chrome.tabs.create({url: %q, active: true}).then(() => true)`, url), nil)
	var user harness.UserView
	e.WaitFor(t, "the user's tab to be active in the focused window", 10*time.Second, func() bool {
		user = e.ReadUserView(t)
		return user.Focused.ID != 0 && strings.Contains(user.X.Title, title)
	})
	mine := chromeTabByURL(t, e, url)
	if user.Active[user.Focused.ID] != mine.ID {
		t.Fatalf("the user's view before the task: %+v, want tab %d active in the focused window", user, mine.ID)
	}
	return user, mine
}

// Issue 14, shown headful (real windows, openbox, real focus): no profile
// operation changes what the user sees: the focused window, its active
// tab and the X server's active window stay the user's, and the tabs a
// sessions_restore reopens are inactive and in the task's group (spec 000
// "Focus-safe restore": chrome.sessions.restore would activate them).
func TestProfileFocusNeverChangesTheUsersView(t *testing.T) {
	e := harness.StartHeadful(t)
	base := e.ServePages(map[string]string{"/mine": page("Mine"), "/closed": page("Closed profile page"), "/marked": page("Marked")})

	// The profile, seeded through Chrome's own APIs behind AgentTab's
	// back: a bookmark, and a tab the user opened in the background and
	// closed (a visit in history and an entry in recently closed).
	e.Eval(t, fmt.Sprintf(`chrome.bookmarks.create({title: "Profile focus mark", url: %q}).then(b => b.id)`, base+"/marked"), nil)
	var closedID int
	e.Eval(t, fmt.Sprintf(`chrome.tabs.create({url: %q, active: false}).then(t => t.id)`, base+"/closed"), &closedID)
	e.WaitFor(t, "the background tab to load", 10*time.Second, func() bool {
		return chromeTabByURL(t, e, base+"/closed").Status == "complete"
	})
	e.Eval(t, fmt.Sprintf(`chrome.tabs.remove(%d).then(() => true)`, closedID), nil)
	e.Eval(t, `chrome.downloads.download({url: "data:text/plain,profile-focus", filename: "profile-focus.txt"})`, nil)
	e.WaitFor(t, "the download to complete", 10*time.Second, func() bool {
		var done bool
		e.Eval(t, `chrome.downloads.search({filenameRegex: "profile-focus", state: "complete"}).then(d => d.length > 0)`, &done)
		return done
	})

	user, mine := showUsersTab(t, e, base+"/mine", "Mine")
	unchanged := func(what string) {
		t.Helper()
		// A view that goes wrong even for a moment within 1.5 s fails:
		// nothing here has a guard that would put it back.
		deadline := time.Now().Add(1500 * time.Millisecond)
		for time.Now().Before(deadline) {
			got := e.ReadUserView(t)
			if got.Focused != user.Focused || got.Active[user.Focused.ID] != mine.ID || got.X != user.X {
				t.Errorf("%s changed the user's view:\nbefore: focused %+v, active tab %d, %v\nafter:  focused %+v, active tab %d, %v\ntabs: %+v",
					what, user.Focused, mine.ID, user.X, got.Focused, got.Active[user.Focused.ID], got.X, e.ChromeTabs(t))
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	a := newProfAgent(t, e)
	profile := func(op protocol.ProfileOp, args map[string]any) map[string]any {
		t.Helper()
		res := a.prof(t, op, args)
		unchanged(string(op))
		return res
	}

	itemWith(t, itemsOf(t, profile(protocol.ProfileBookmarksSearch, map[string]any{"query": "Profile focus mark"})), "url", base+"/marked")
	if res := profile(protocol.ProfileBookmarksCreate, map[string]any{"title": "Made by the task", "url": base + "/made"}); len(asList(res["ids"])) != 1 {
		t.Errorf("bookmarks_create answered %v, want one id", res)
	}
	itemWith(t, itemsOf(t, profile(protocol.ProfileHistorySearch, map[string]any{"query": "Closed profile page"})), "url", base+"/closed")
	closed := itemWith(t, itemsOf(t, profile(protocol.ProfileSessionsList, nil)), "url", base+"/closed")
	restored := profile(protocol.ProfileSessionsRestore, map[string]any{"id": closed["id"]})
	handles := asList(restored["tabs"])
	if len(handles) != 1 {
		t.Fatalf("sessions_restore answered %v, want one tab", restored)
	}
	if len(itemsOf(t, profile(protocol.ProfileDownloadsSearch, map[string]any{"query": "profile-focus"}))) != 1 {
		t.Errorf("downloads_search did not find the one seeded download")
	}

	// The restored tab: inactive, owned by the task, in its group.
	tab := chromeTabByURL(t, e, base+"/closed")
	if tab.Active {
		t.Errorf("the restored tab %d is active", tab.ID)
	}
	tabs := a.ok(t, protocol.MethodTabs, map[string]any{})
	if !slices.ContainsFunc(listed(t, tabs), func(l map[string]any) bool { return l["tab"] == handles[0] }) {
		t.Errorf("browser_tabs %v does not list the restored tab %v", tabs, handles[0])
	}
	if g, found := groupByID(t, e, tab.GroupID); !found || g.Title != taskOf(t, tabs)["label"] {
		t.Errorf("the restored tab is in group %d (%+v), want the task's group %v", tab.GroupID, g, taskOf(t, tabs)["label"])
	}
	unchanged("the end")
}
