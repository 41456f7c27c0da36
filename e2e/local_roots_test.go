package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// tokenText is the HTTP bearer token the test writes into the state
// directory: a snapshot holding it has read AgentTab's own secrets.
const tokenText = "secret-bearer-token-7f3a"

// localRoot is an admitted folder holding a coverage report whose frames
// and links lead to /etc/passwd and into the state directory, directly
// and through a symlink in the folder.
type localRoot struct {
	dir, token string
}

func (r localRoot) url(name string) string { return "file://" + filepath.Join(r.dir, name) }

func newLocalRoot(t *testing.T) localRoot {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return localRoot{dir: dir}
}

// fill writes the report once the state directory exists.
func (r *localRoot) fill(t *testing.T, e *harness.Env) {
	t.Helper()
	r.token = filepath.Join(e.StateDir, "adapters", "http-token")
	if err := os.MkdirAll(filepath.Dir(r.token), 0o700); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside.html")
	for path, text := range map[string]string{
		r.token: tokenText,
		filepath.Join(r.dir, "report.html"): fmt.Sprintf(`<!doctype html><title>Coverage</title><h1>Coverage report</h1><p>87 percent of lines covered</p>
<iframe src="file:///etc/passwd" title="Passwd frame"></iframe>
<iframe src="file://%s" title="Token frame"></iframe>
<iframe src="token-link" title="Token link frame"></iframe>
<iframe src="detail.html" title="Detail frame"></iframe>
<object data="file:///etc/passwd" title="Passwd object"></object><embed src="token-link" title="Token embed"><img src="file:///etc/passwd" alt="Passwd image">
<p><a href="file:///etc/passwd">Passwd link</a> <a href="token-link">Token link</a> <a href="detail.html">Detail</a></p>`, r.token),
		filepath.Join(r.dir, "detail.html"): `<!doctype html><title>Detail</title><h1>Detail page</h1>`,
		outside:                             `<!doctype html><h1>Outside the root</h1>`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(r.token, filepath.Join(r.dir, "token-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(r.dir, "hard-link.html")); err != nil {
		t.Fatal(err)
	}
}

// readsNoSecret takes a full snapshot and fails when it holds
// /etc/passwd or the token.
func readsNoSecret(t *testing.T, s *mcp.ClientSession, tab string) (string, int64) {
	t.Helper()
	text, rev, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if strings.Contains(text, passwdLine) || strings.Contains(text, tokenText) {
		t.Fatalf("the snapshot holds a file it must not:\n%s", text)
	}
	return text, rev
}

// The user admits one folder (policy.json local_files.allowed_roots): an
// agent opens the report in it and reads it; everything the report
// reaches for outside the folder or in the state directory (frames,
// links, a symlink in the folder) is refused, so no snapshot ever holds
// /etc/passwd or the token; explicit targets outside it open no tab.
func TestLocalRootsAdmitOnlyTheirFolder(t *testing.T) {
	root := newLocalRoot(t)
	e := harness.Start(t, harness.WithPolicy(fmt.Sprintf(`{"local_files":{"allowed_roots":[%q]}}`, root.dir)))
	root.fill(t, e)
	s := e.MCP(t)

	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": root.url("report.html")})
	tab := handleOf(t, opened)
	if u := tabOf(t, opened)["url"]; u != root.url("report.html") {
		t.Fatalf("the opened tab is at %v", u)
	}
	text, rev := readsNoSecret(t, s, tab)
	if !strings.Contains(text, "Coverage report") || !strings.Contains(text, "Detail page") {
		t.Fatalf("the snapshot does not read the report and its admitted frame:\n%s", text)
	}
	// Chrome's own record of the frames: each refused one failed to load.
	var frames []struct {
		URL           string `json:"url"`
		ErrorOccurred bool   `json:"errorOccurred"`
		FrameID       int    `json:"frameId"`
	}
	id := chromeTabByURL(t, e, root.url("report.html")).ID
	e.Eval(t, fmt.Sprintf(`chrome.webNavigation.getAllFrames({tabId: %d})`, id), &frames)
	failed := map[string]bool{}
	for _, f := range frames {
		if f.FrameID != 0 {
			failed[f.URL] = f.ErrorOccurred
		}
	}
	for _, u := range []string{"file:///etc/passwd", "file://" + root.token, root.url("token-link")} {
		if ok, seen := failed[u]; !seen || !ok {
			t.Errorf("the frame of %s did not fail in Chrome (frames %+v)", u, frames)
		}
	}
	if failed[root.url("detail.html")] {
		t.Errorf("the admitted frame failed: %+v", frames)
	}

	// Links toward a refused file: the navigation is stopped, the tab
	// keeps its page and revision.
	for _, name := range []string{"Passwd link", "Token link"} {
		res := actRefused(t, s, tab, rev, protocol.CodeLocalFileDenied, step("click", "ref", refOf(t, text, "link", name)))
		if got := stepsOf(res)[0]; got["navigation"] != string(protocol.NavigationRefused) || got["outcome"] != string(protocol.OutcomeDispatched) {
			t.Fatalf("%s: receipt %v, want navigation refused, outcome dispatched", name, got)
		}
		if revisionOf(res) != rev || tabURL(t, e, "file://") != root.url("report.html") {
			t.Fatalf("%s: the tab moved (revision %d, was %d)", name, revisionOf(res), rev)
		}
		readsNoSecret(t, s, tab)
	}

	// Targets outside the folder, in the state directory, through the
	// symlink or a hard link: refused before anything runs, no tab.
	tabsBefore := len(e.ChromeTabs(t))
	for _, target := range []string{
		"file:///etc/passwd",
		"file://" + root.token,
		"file://" + filepath.Dir(root.token) + "/",
		root.url("token-link"),
		root.url("hard-link.html"),
		"file://" + root.dir + "/../" + filepath.Base(root.dir) + "/report.html",
		"file://" + root.dir + "/%2e%2e/" + filepath.Base(root.dir) + "/report.html",
		"file://localhost/etc/passwd",
		"file://server" + root.dir + "/report.html",
		"view-source:" + root.url("report.html"),
	} {
		res := refused(t, s, protocol.MethodOpen, map[string]any{"url": target}, protocol.CodeLocalFileDenied)
		if res["outcome"] != string(protocol.OutcomeNotStarted) || strings.Contains(fmt.Sprint(res["message"]), root.dir) || strings.Contains(fmt.Sprint(res["message"]), "passwd") {
			t.Errorf("open %s: %v", target, res)
		}
		if !strings.Contains(fmt.Sprint(res["recovery"]), "local_files.allowed_roots") {
			t.Errorf("open %s: recovery %v does not name the policy key", target, res["recovery"])
		}
	}
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Fatalf("Chrome has %d tabs after the refused opens, had %d", n, tabsBefore)
	}
	res := actRefused(t, s, tab, rev, protocol.CodeLocalFileDenied, step("navigate", "url", root.url("token-link")))
	if res["outcome"] != string(protocol.OutcomeNotStarted) || tabURL(t, e, "file://") != root.url("report.html") {
		t.Fatalf("navigate through the symlink: %v", res)
	}

	// What the folder admits: a link to another page in it, a navigate
	// step, the folder's listing.
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Detail")))
	if stepsOf(res)[0]["navigation"] != string(protocol.NavigationCommitted) {
		t.Fatalf("the link to the detail page: %v", res)
	}
	if text, _ := readsNoSecret(t, s, tab); !strings.Contains(text, "Detail page") {
		t.Fatalf("the detail page was not read:\n%s", text)
	}
	_, rev, _ = snap(t, s, tab, nil)
	act(t, s, tab, rev, step("navigate", "url", "file://"+root.dir))
	if text, _ := readsNoSecret(t, s, tab); !strings.Contains(text, "report.html") || !strings.Contains(text, "token-link") {
		t.Fatalf("the folder's listing was not read:\n%s", text)
	}
	// The audit names local targets by scheme only, never their paths.
	if data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl")); err != nil || strings.Contains(string(data), root.dir) || strings.Contains(string(data), "passwd") {
		t.Errorf("audit.jsonl names a local path (%v)", err)
	}
}
