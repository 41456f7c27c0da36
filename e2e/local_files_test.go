package e2e

import (
	"encoding/json"
	"fmt"
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

// passwdLine is the start of /etc/passwd on every Unix: a snapshot holding
// it has read the file.
const passwdLine = "root:x:0:0"

// localFileSite serves a page whose link, script, popup and server
// redirect all lead to file:///etc/passwd, and counts the page's loads.
type localFileSite struct {
	base  string
	mu    sync.Mutex
	loads int
}

func serveLocalFileSite(t *testing.T, e *harness.Env) *localFileSite {
	t.Helper()
	s := &localFileSite{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/":
			s.mu.Lock()
			s.loads++
			s.mu.Unlock()
			fmt.Fprint(w, `<!doctype html><title>Start</title><h1>Start</h1>
<a href="file:///etc/passwd">Local link</a>
<button onclick="location.href = 'file:///etc/passwd'">Script to file</button>
<button onclick="window.open('file:///etc/passwd')">Popup to file</button>
<a href="/redir">Redirect to file</a>`)
		case "/redir":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		default:
			fmt.Fprint(w, page(r.URL.Path))
		}
	})
	s.base = e.Serve(mux)
	return s
}

func (s *localFileSite) pageLoads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loads
}

// noLocalTab fails when Chrome has any tab on (or on its way to) a local
// file, read from Chrome itself.
func noLocalTab(t *testing.T, e *harness.Env) {
	t.Helper()
	for _, ct := range e.ChromeTabs(t) {
		for _, u := range []string{ct.URL, ct.PendingURL} {
			if l := strings.ToLower(u); strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "view-source:") {
				t.Errorf("Chrome has tab %d at %s (title %q)", ct.ID, u, ct.Title)
			}
		}
	}
}

// unreadSnapshot takes a snapshot of tab and fails when it holds the
// file's text.
func unreadSnapshot(t *testing.T, s *mcp.ClientSession, tab string) map[string]any {
	t.Helper()
	text, _, res := snap(t, s, tab, map[string]any{"mode": "full"})
	if strings.Contains(text, passwdLine) {
		t.Fatalf("the snapshot holds /etc/passwd:\n%s", text)
	}
	return res
}

// The finding's repro, without a policy.json: browser_open and navigate
// steps toward a local file, however spelled, are refused local_file_denied
// before anything runs, and Chrome opens nothing; the audit names the
// attempt by scheme only. A page's own link, script, popup and server
// redirect toward file: never bring the file into the tab (Chrome refuses
// those itself, observed in Chromium 156, and the origin guard would stop
// what it let through); a navigation to file: that reaches the tab by
// another way (here the user's own, through chrome.tabs.update) is stopped
// by the origin guard and reported.
func TestLocalFilesRefused(t *testing.T) {
	e := harness.Start(t)
	site := serveLocalFileSite(t, e)
	s := e.MCP(t)
	// What the finding read: the HTTP bearer token beside the adapters'
	// resume capabilities.
	token := filepath.Join(e.StateDir, "adapters", "http-token")
	if err := os.MkdirAll(filepath.Dir(token), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(token, []byte("secret-bearer-token"), 0o600); err != nil {
		t.Fatal(err)
	}

	tabsBefore := len(e.ChromeTabs(t))
	for _, target := range []string{
		"file:///etc/passwd",
		"FILE:///etc/passwd",
		"file:/etc/passwd",
		"file://localhost/etc/passwd",
		"file://127.0.0.1/etc/passwd",
		"file:///%65tc/passwd",
		" file:///etc/passwd",
		"file://" + filepath.Join(e.StateDir, "adapters") + "/",
		"file://" + token,
		"view-source:file:///etc/passwd",
		"VIEW-SOURCE:File:///etc/passwd",
	} {
		res := refused(t, s, protocol.MethodOpen, map[string]any{"url": target}, protocol.CodeLocalFileDenied)
		if res["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("open %q: outcome %v, want not_started", target, res["outcome"])
		}
	}
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Fatalf("Chrome has %d tabs after the refused opens, had %d", n, tabsBefore)
	}
	noLocalTab(t, e)
	auditNamesLocalFileAttempts(t, e)

	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"})
	tab := handleOf(t, opened)
	_, rev, _ := snap(t, s, tab, nil)

	// A navigate step to a local file: the batch does not start.
	for _, steps := range [][]map[string]any{
		{step("navigate", "url", "file:///etc/passwd")},
		{step("navigate", "url", site.base+"/second"), step("navigate", "url", "file://"+token)},
	} {
		res := actRefused(t, s, tab, rev, protocol.CodeLocalFileDenied, beforeSteps, steps...)
		if res["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Fatalf("navigate to a local file: %v", res)
		}
	}
	if u := tabURL(t, e, site.base); u != site.base+"/" || site.pageLoads() != 1 {
		t.Fatalf("after refused navigate steps the tab is at %s, the page loaded %d times", u, site.pageLoads())
	}

	// A navigation to file: the page did not start reaches the tab (the
	// user's, or one Chrome lets through): the guard stops it, the tab is
	// back on its page, and the task's next result reports the stop.
	id := chromeTabByURL(t, e, site.base+"/").ID
	e.Eval(t, fmt.Sprintf(`chrome.tabs.update(%d, {url: "file:///etc/passwd"}).then(() => null)`, id), nil)
	// Bounded as a hang check: on loaded clean-clone runs the take-back
	// has outlasted 10 s twice (a slow round between Chrome's commit of the
	// file and the guard's reload; under investigation).
	e.WaitFor(t, "the guard to take the tab back", 30*time.Second, func() bool {
		for _, ct := range e.ChromeTabs(t) {
			if ct.ID == id {
				return ct.URL == site.base+"/" && ct.PendingURL == "" && ct.Status == "complete"
			}
		}
		return false
	})
	noLocalTab(t, e)
	res := unreadSnapshot(t, s, tab)
	stops, _ := res["origin_stops"].([]any)
	if len(stops) == 0 || stops[len(stops)-1].(map[string]any)["url"] != "file:///etc/passwd" {
		t.Fatalf("the next snapshot reports stops %v, want the file: navigation", res["origin_stops"])
	}
	text, rev, _ := snap(t, s, tab, nil)

	// What the page itself starts toward file: leaves the tab on its page;
	// the popup's window.open, caught by AgentTab's trap, is refused.
	for _, st := range []map[string]any{
		step("click", "ref", refOf(t, text, "link", "Local link")),
		step("click", "ref", refOf(t, text, "button", "Script to file")),
	} {
		res := act(t, s, tab, rev, st)
		if got := stepsOf(res)[0]; got["navigation"] == string(protocol.NavigationCommitted) || revisionOf(res) != rev {
			t.Fatalf("%v: %v", st, res)
		}
	}
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Popup to file")))
	popups, _ := stepsOf(res)[0]["popups"].([]any)
	if len(popups) != 1 {
		t.Fatalf("want one popup entry on the step: %v", res)
	}
	if p := popups[0].(map[string]any); p["tab"] != nil || p["error"].(map[string]any)["code"] != string(protocol.CodeLocalFileDenied) {
		t.Fatalf("popup entry %v, want local_file_denied and no tab", p)
	}
	if u := tabURL(t, e, site.base); u != site.base+"/" {
		t.Fatalf("the tab is at %s, want it still on %s/", u, site.base)
	}
	noLocalTab(t, e)
	unreadSnapshot(t, s, tab)
	text, rev, _ = snap(t, s, tab, nil)

	// The server redirect to file: last: Chrome refuses it with its error
	// page (net::ERR_UNSAFE_REDIRECT, observed in Chromium 156).
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Redirect to file")))
	if st := stepsOf(res)[0]; st["navigation"] == string(protocol.NavigationCommitted) && !strings.HasPrefix(fmt.Sprint(res["url"]), site.base) {
		t.Fatalf("redirect to a local file: %v", res)
	}
	noLocalTab(t, e)
	if res, isErr := harness.CallTool(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab, "mode": "full"}); !isErr && strings.Contains(fmt.Sprint(res["text"]), passwdLine) {
		t.Fatalf("the snapshot after the redirect holds /etc/passwd: %v", res)
	}
}

// With origin lists in force the guard holds the tab's debugger, and the
// navigation to file: is stopped before it commits: the tab keeps its
// document and revision. A local-file target is local_file_denied before
// the origin policy is asked.
func TestLocalFilesRefusedUnderOriginPolicy(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"origins":{"denied":["http://localhost"]}}`))
	site := serveLocalFileSite(t, e)
	s := e.MCP(t)
	refused(t, s, protocol.MethodOpen, map[string]any{"url": "file:///etc/passwd"}, protocol.CodeLocalFileDenied)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": site.base + "/"}))
	_, rev, _ := snap(t, s, tab, nil)
	if !guarded(t, e, site.base) {
		t.Fatalf("the opened tab is not guarded")
	}
	id := chromeTabByURL(t, e, site.base+"/").ID
	e.Eval(t, fmt.Sprintf(`chrome.tabs.update(%d, {url: "file:///etc/passwd"}).then(() => null)`, id), nil)
	var res map[string]any
	e.WaitFor(t, "the stop to be reported", 10*time.Second, func() bool {
		res = unreadSnapshot(t, s, tab)
		return res["origin_stops"] != nil
	})
	if stops, _ := res["origin_stops"].([]any); len(stops) != 1 || stops[0].(map[string]any)["url"] != "file:///etc/passwd" || stops[0].(map[string]any)["late"] != nil {
		t.Fatalf("origin_stops %v, want one stop of file:///etc/passwd before it committed", res["origin_stops"])
	}
	if revisionOf(res) != rev || site.pageLoads() != 1 {
		t.Fatalf("the tab moved: revision %d (was %d), the page loaded %d times", revisionOf(res), rev, site.pageLoads())
	}
	noLocalTab(t, e)
}

// auditNamesLocalFileAttempts: each refused open is audited with the
// scheme as its target, never the path.
func auditNamesLocalFileAttempts(t *testing.T, e *harness.Env) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "passwd") || strings.Contains(string(data), "http-token") {
		t.Errorf("audit.jsonl names a local path")
	}
	var refusedOpens int
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Method        string   `json:"method"`
			ErrorCode     string   `json:"error_code"`
			TargetOrigins []string `json:"target_origins"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		if r.Method != protocol.MethodOpen || r.ErrorCode != string(protocol.CodeLocalFileDenied) {
			continue
		}
		refusedOpens++
		if len(r.TargetOrigins) != 1 || (r.TargetOrigins[0] != "file:" && r.TargetOrigins[0] != "file://localhost" && r.TargetOrigins[0] != "file://127.0.0.1") {
			t.Errorf("a refused local-file open is audited with targets %q, want its scheme", r.TargetOrigins)
		}
	}
	if refusedOpens == 0 {
		t.Errorf("no refused local-file open in audit.jsonl")
	}
}
