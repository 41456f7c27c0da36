package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The sneaky button uses a window.open the page took before any gesture,
// which the trap cannot replace: Chrome opens that one itself.
const popupsPage = `<!doctype html><title>Popups</title>
<button onclick="window.open('/child?via=open')">Open popup</button>
<button onclick="const w = window.open(''); w.location = '/child?via=location'">Open then set</button>
<a href="/child?via=blank" target="_blank">New tab link</a>
<button onclick="sneaky('/child?via=sneaky', 'sneaky', 'popup,width=320,height=240')">Sneaky popup</button>
<button onclick="setTimeout(() => { document.getElementById('native').textContent = 'open is native: ' + /native code/.test(String(window.open)); }, 300)">Inspect later</button>
<p id="native">-</p>
<script>const sneaky = window.open.bind(window);</script>`

// A popup the page opens from an owned tab becomes a background tab of the
// same task, in its group, and the user's active tab does not change.
func TestPopupsBecomeBackgroundTaskTabs(t *testing.T) {
	// Headful: activation and focus are real there (headful_focus_test.go).
	e := harness.StartHeadful(t)
	base := e.ServePages(map[string]string{"/": popupsPage, "/child": page("Child")})
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab := handleOf(t, opened)
	opener := chromeTabByURL(t, e, base+"/")
	activeBefore := activeTabs(t, e)
	text, rev, _ := snap(t, s, tab, nil)

	for _, c := range []struct{ role, name, via string }{
		{"button", "Open popup", "open"},
		{"button", "Open then set", "location"},
		{"link", "New tab link", "blank"},
	} {
		res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, c.role, c.name)))
		rev = revisionOf(res)
		popups, _ := stepsOf(res)[0]["popups"].([]any)
		if len(popups) != 1 {
			t.Fatalf("%s: want one popup on the step, got %v", c.name, res)
		}
		p, _ := popups[0].(map[string]any)
		handle, _ := p["tab"].(string)
		if handle == "" || p["error"] != nil || !strings.HasSuffix(p["url"].(string), "/child?via="+c.via) {
			t.Fatalf("%s: popup %v, want an owned tab at /child?via=%s", c.name, p, c.via)
		}
		want := base + "/child?via=" + c.via
		e.WaitFor(t, c.name+"'s tab to load", 10*time.Second, func() bool {
			for _, ct := range e.ChromeTabs(t) {
				if ct.URL == want && ct.Status == "complete" {
					return true
				}
			}
			return false
		})
		child := chromeTabByURL(t, e, want)
		if child.Active || child.GroupID != opener.GroupID || child.WindowID != opener.WindowID {
			t.Errorf("%s: Chrome shows %+v, want inactive in group %d of window %d", c.name, child, opener.GroupID, opener.WindowID)
		}
		// The task can work in it like any tab it opened.
		if childText, _, _ := snap(t, s, handle, nil); !strings.Contains(childText, `"Child"`) {
			t.Errorf("%s: snapshot of the popup:\n%s", c.name, childText)
		}
	}
	// The trap lives only for the gesture: afterwards window.open is the page's own again.
	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Inspect later")),
		step("wait", "wait", map[string]any{"until": "text", "text": "open is native"}))
	rev = revisionOf(res)
	if after, _, _ := snap(t, s, tab, map[string]any{"mode": "full"}); !strings.Contains(after, "open is native: true") {
		t.Errorf("window.open after the gesture:\n%s", after)
	}
	if after := activeTabs(t, e); !slices.Equal(after, activeBefore) {
		t.Errorf("active tabs changed from %v to %v", activeBefore, after)
	}
	if got := listed(t, ok(t, s, protocol.MethodTabs, nil)); len(got) != 4 {
		t.Errorf("browser_tabs lists %d tabs, want the opener and 3 popups: %v", len(got), got)
	}

	// The sneaky one escapes the trap: Chrome opens it itself, in a popup
	// window (and focuses that window, as Chrome does for a page's popup;
	// the focus guard gives the focus back, headful_focus_test.go).
	// Chrome reports it as the child of the owned tab and lets it hold a
	// group, so the task owns it there; the task's next tab still opens in
	// the normal window.
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Sneaky popup")))
	popups, _ := stepsOf(res)[0]["popups"].([]any)
	if len(popups) != 1 {
		t.Fatalf("sneaky popup: want one popup on the step, got %v", res)
	}
	if p, _ := popups[0].(map[string]any); p["tab"] == nil || p["error"] != nil {
		t.Fatalf("sneaky popup: %v, want an owned tab", p)
	}
	sneaky := chromeTabByURL(t, e, base+"/child?via=sneaky")
	if g, found := groupByID(t, e, sneaky.GroupID); !found || g.Title != taskOf(t, opened)["label"] {
		t.Errorf("the sneaky popup is in group %+v, want the task's look", g)
	}
	next := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/child?via=next"})
	if w := chromeTabByURL(t, e, base+"/child?via=next").WindowID; w != opener.WindowID {
		t.Errorf("the next browser_open went to window %d, want the normal window %d (%v)", w, opener.WindowID, next)
	}

	// Finishing closes the owned popups and leaves the user's one alone.
	ok(t, s, protocol.MethodFinish, map[string]any{"close_tabs": true})
	e.WaitFor(t, "the task's tabs to close", 10*time.Second, func() bool {
		for _, ct := range e.ChromeTabs(t) {
			if strings.HasPrefix(ct.URL, base) {
				return false
			}
		}
		return true
	})
}

func activeTabs(t testing.TB, e *harness.Env) []int {
	var ids []int
	for _, ct := range e.ChromeTabs(t) {
		if ct.Active {
			ids = append(ids, ct.ID)
		}
	}
	slices.Sort(ids)
	return ids
}
