package harness

import "testing"

// Tab is a chrome.tabs.Tab as Chrome itself reports it.
type Tab struct {
	ID       int    `json:"id"`
	WindowID int    `json:"windowId"`
	GroupID  int    `json:"groupId"` // -1 when the tab is in no group
	Active   bool   `json:"active"`
	URL      string `json:"url"`
	// PendingURL is set while a navigation has not committed.
	PendingURL string `json:"pendingUrl"`
	Title      string `json:"title"`
	Status     string `json:"status"` // "loading", "complete", "unloaded"
	// OpenerTabID is 0 when the tab has no opener.
	OpenerTabID int `json:"openerTabId"`
}

// Group is a chrome.tabGroups.TabGroup.
type Group struct {
	ID       int    `json:"id"`
	WindowID int    `json:"windowId"`
	Title    string `json:"title"`
	Color    string `json:"color"`
}

// Window is a chrome.windows.Window.
type Window struct {
	ID      int    `json:"id"`
	Focused bool   `json:"focused"`
	Type    string `json:"type"`  // "normal", "popup", …
	State   string `json:"state"` // "normal", "minimized", …
	// Bounds in screen pixels.
	Left   int `json:"left"`
	Top    int `json:"top"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ChromeTabs lists every tab in every window, read from Chrome, not from
// AgentTab.
func (e *Env) ChromeTabs(t testing.TB) []Tab {
	t.Helper()
	var tabs []Tab
	e.Eval(t, `chrome.tabs.query({})`, &tabs)
	return tabs
}

// ChromeGroups lists every tab group.
func (e *Env) ChromeGroups(t testing.TB) []Group {
	t.Helper()
	var groups []Group
	e.Eval(t, `chrome.tabGroups.query({})`, &groups)
	return groups
}

// ChromeWindows lists every window.
func (e *Env) ChromeWindows(t testing.TB) []Window {
	t.Helper()
	var windows []Window
	e.Eval(t, `chrome.windows.getAll({})`, &windows)
	return windows
}

// Eval evaluates a JavaScript expression in the extension's service worker
// (with the extension's chrome.* APIs), awaits it when it is a promise and
// decodes its JSON value into out; out may be nil. Tests use it to read
// what the helpers above do not cover and to act as the user would, behind
// AgentTab's back: `chrome.tabs.ungroup(5)`, `chrome.tabs.remove(5)`,
// `chrome.tabs.move(5, {index: 0})`, `chrome.tabs.group({tabIds: [5]})`.
func (e *Env) Eval(t testing.TB, expr string, out any) {
	t.Helper()
	if err := e.sw.eval(expr, out); err != nil {
		t.Fatal(err)
	}
}
