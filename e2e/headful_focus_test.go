package e2e

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The task's page: every way a click can open a tab. "Kept open" calls a
// window.open the page took before any gesture, which the trap cannot
// replace, so Chrome opens that one itself.
const focusPage = `<!doctype html><title>Task page</title>
<button onclick="window.open('/child?via=open')">Open popup</button>
<button id="kept">Kept open</button>
<a href="/child?via=blank" target="_blank">New tab link</a>
<script>const open = window.open; document.getElementById('kept').onclick = () => open('/child?via=kept');</script>`

// Issue 10, shown headful (real windows, a window manager, real focus):
// nothing a task does changes the window the user is in, its bounds, its
// active tab, or the X server's active window. Tried headful before the
// fix, a kept window.open made its popup the active tab of the user's
// window, and a click in a task's own (unfocused) new window raised that
// window over the user's.
func TestHeadfulTasksNeverTakeTheUsersFocus(t *testing.T) {
	e := harness.StartHeadful(t)
	base := e.ServePages(map[string]string{"/": focusPage, "/mine": page("Mine"), "/child": page("Child")})

	user, mine := showUsersTab(t, e, base+"/mine", "Mine")
	unchanged := func(what string) {
		t.Helper()
		var got harness.UserView
		// The guard may put the user's tab or window back a moment after
		// Chrome moved it; a view that stays wrong fails.
		deadline := time.Now().Add(3 * time.Second)
		for {
			got = e.ReadUserView(t)
			if got.Focused == user.Focused && got.Active[user.Focused.ID] == mine.ID && got.X == user.X {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s changed the user's view:\nbefore: focused %+v, active tab %d, %v\nafter:  focused %+v, active tab %d, %v\ntabs: %+v",
					what, user.Focused, mine.ID, user.X, got.Focused, got.Active[user.Focused.ID], got.X, e.ChromeTabs(t))
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	loaded := func(url string) {
		t.Helper()
		e.WaitFor(t, url+" to load", 10*time.Second, func() bool {
			for _, ct := range e.ChromeTabs(t) {
				if ct.URL == url && ct.Status == "complete" {
					return true
				}
			}
			return false
		})
	}
	click := func(s *mcp.ClientSession, tab, role, name string) {
		t.Helper()
		text, rev, _ := snap(t, s, tab, nil)
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, role, name)))
	}

	// A task in the user's window: its tabs and popups stay in the background.
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	unchanged("browser_open")
	click(s, tab, "button", "Kept open")
	loaded(base + "/child?via=kept")
	unchanged("a click on a kept window.open")
	click(s, tab, "link", "New tab link")
	loaded(base + "/child?via=blank")
	unchanged("a click on a target=_blank link")

	// A task in its own new window: the window opens unfocused and stays
	// behind the user's, whatever its page opens.
	s2 := e.MCP(t)
	own := handleOf(t, ok(t, s2, protocol.MethodOpen, map[string]any{"url": base + "/?own", "placement": "new_window"}))
	unchanged("browser_open in a new window")
	click(s2, own, "button", "Open popup")
	loaded(base + "/child?via=open")
	unchanged("a click on window.open in the task's window")
	click(s2, own, "button", "Kept open")
	e.WaitFor(t, "the second kept popup", 10*time.Second, func() bool {
		n := 0
		for _, ct := range e.ChromeTabs(t) {
			if ct.URL == base+"/child?via=kept" && ct.Status == "complete" {
				n++
			}
		}
		return n == 2
	})
	unchanged("a click on a kept window.open in the task's window")
}
