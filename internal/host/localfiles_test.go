package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agenttab/agenttab/internal/nativemsg"
	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// localDisk is a scratch disk for the path rules: a state directory with
// the HTTP bearer token in it, an admitted root, and a folder outside.
type localDisk struct {
	top, state, root, outside, token string
}

func newLocalDisk(t testing.TB) localDisk {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := localDisk{top: top, state: filepath.Join(top, "state"), root: filepath.Join(top, "root"), outside: filepath.Join(top, "outside")}
	d.token = filepath.Join(d.state, "adapters", "http-token")
	for _, dir := range []string{filepath.Dir(d.token), filepath.Join(d.root, "sub"), d.outside} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(d.token, "secret-bearer-token")
	write(filepath.Join(d.root, "page.html"), "<p>report</p>")
	write(filepath.Join(d.root, "with space.html"), "<p>spaced</p>")
	write(filepath.Join(d.outside, "secret.txt"), "secret")
	write(filepath.Join(d.outside, "linked.txt"), "linked")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(d.root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(d.token, "token-link")
	link(d.state, "state-link")
	link(filepath.Join(d.outside, "secret.txt"), "out-link")
	link("page.html", "in-link.html")
	link(d.top, "up-link")
	for target, name := range map[string]string{filepath.Join(d.outside, "linked.txt"): "hard-out", d.token: "hard-token"} {
		if err := os.Link(target, filepath.Join(d.root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(d.root, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

func (d localDisk) files(t testing.TB, roots ...string) *localFiles {
	t.Helper()
	var p policy.Policy
	p.LocalFiles.AllowedRoots = roots
	l, err := loadLocalFiles(p, statedir.Dir(d.state))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The path rules. Every refusal is local_file_denied, not_started, with
// the recovery text, and its message names no path.
func TestLocalFilesAdmit(t *testing.T) {
	d := newLocalDisk(t)
	u := func(path string) string { return "file://" + path }
	tests := []struct {
		name, url string
		want      string // the canonical URL; "" when refused
		why       string // a substring of the refusal
	}{
		{"a page in the root", u(d.root + "/page.html"), u(d.root + "/page.html"), ""},
		{"file://localhost", "file://localhost" + d.root + "/page.html", u(d.root + "/page.html"), ""},
		{"scheme in capitals", "FILE://" + d.root + "/page.html", u(d.root + "/page.html"), ""},
		{"the root's listing", u(d.root + "/"), u(d.root + "/"), ""},
		{"the root without its slash", u(d.root), u(d.root + "/"), ""},
		{"a folder gets its slash", u(d.root + "/sub"), u(d.root + "/sub/"), ""},
		{"percent-encoding is read", u(d.root + "/with%20space.html"), u(d.root + "/with%20space.html"), ""},
		{"an encoded letter", u(d.root + "/p%61ge.html"), u(d.root + "/page.html"), ""},
		{"query and fragment are kept", u(d.root + "/page.html?x=1#top"), u(d.root + "/page.html?x=1#top"), ""},
		{"a symlink inside the root is resolved", u(d.root + "/in-link.html"), u(d.root + "/page.html"), ""},

		{"outside the root", u(d.outside + "/secret.txt"), "", "not inside a folder"},
		{"/etc/passwd", "file:///etc/passwd", "", "not inside a folder"},
		{"the state directory's token", u(d.token), "", "state directory"},
		{"a symlink into the state directory", u(d.root + "/token-link"), "", "state directory"},
		{"a symlink to the state directory", u(d.root + "/state-link/"), "", "state directory"},
		{"through a symlinked folder into the state directory", u(d.root + "/state-link/adapters/http-token"), "", "state directory"},
		{"a symlink out of the root", u(d.root + "/out-link"), "", "not inside a folder"},
		{"a symlink to the root's parent", u(d.root + "/up-link/"), "", "not inside a folder"},
		{"a hard link of a file outside", u(d.root + "/hard-out"), "", "hard link"},
		{"a hard link of the token", u(d.root + "/hard-token"), "", "hard link"},
		{"a fifo", u(d.root + "/fifo"), "", "neither a regular file nor a folder"},
		{"a missing file", u(d.root + "/missing.html"), "", "does not exist"},
		{"dot dot", u(d.root + "/../outside/secret.txt"), "", ". or .."},
		{"encoded dot dot", u(d.root + "/%2e%2e/outside/secret.txt"), "", ". or .."},
		{"half-encoded dot dot", u(d.root + "/.%2E/state/adapters/http-token"), "", ". or .."},
		{"dot", u(d.root + "/./page.html"), "", ". or .."},
		{"an encoded slash", u(d.root + "/sub%2F..%2F..%2Foutside/secret.txt"), "", "not of the form"},
		{"an encoded NUL", u(d.root + "/page.html%00.txt"), "", "not of the form"},
		{"a backslash", u(d.root + `\page.html`), "", "not of the form"},
		{"an empty segment", u(d.root + "//page.html"), "", "not of the form"},
		{"a bad escape", u(d.root + "/%zz"), "", "not of the form"},
		{"a host", "file://server" + d.root + "/page.html", "", "names a host"},
		{"an IP host", "file://127.0.0.1" + d.root + "/page.html", "", "names a host"},
		{"four slashes", "file:///" + d.root + "/page.html", "", "not of the form"},
		{"no slashes", "file:" + strings.TrimPrefix(d.root, "/") + "/page.html", "", "not of the form"},
		{"one slash", "file:" + d.root + "/page.html", "", "not of the form"},
		{"a control character", u(d.root + "/pa\tge.html"), "", "not of the form"},
		{"not file", "https://example.com/", "", "not of the form"},
	}
	l := d.files(t, d.root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, perr := l.admit(tt.url)
			if tt.want != "" {
				if perr != nil || got != tt.want {
					t.Fatalf("admit(%q) = %q, %v; want %q", tt.url, got, perr, tt.want)
				}
				return
			}
			checkLocalRefusal(t, d, tt.url, got, perr, tt.why)
		})
	}
}

func checkLocalRefusal(t *testing.T, d localDisk, url, got string, perr *protocol.Error, why string) {
	t.Helper()
	if perr == nil {
		t.Fatalf("admit(%q) = %q, want a refusal", url, got)
	}
	if perr.Code != protocol.CodeLocalFileDenied || perr.Outcome != protocol.OutcomeNotStarted || perr.Recovery != protocol.ErrorCatalogue[protocol.CodeLocalFileDenied].Recovery {
		t.Errorf("admit(%q) = %+v, want local_file_denied, not_started, the recovery text", url, perr)
	}
	if !strings.Contains(perr.Message, why) {
		t.Errorf("admit(%q) message %q, want it to say %q", url, perr.Message, why)
	}
	if strings.Contains(perr.Message, d.top) || strings.Contains(perr.Message, "passwd") {
		t.Errorf("admit(%q) message %q names the path", url, perr.Message)
	}
}

// A root that holds the state directory admits everything in it but the
// state directory; without roots nothing is admitted.
func TestLocalFilesRootAroundTheStateDirectory(t *testing.T) {
	d := newLocalDisk(t)
	l := d.files(t, d.top)
	for _, ok := range []string{d.top + "/", d.root + "/page.html", d.outside + "/secret.txt", d.root + "/out-link"} {
		if _, perr := l.admit("file://" + ok); perr != nil {
			t.Errorf("admit(%s) = %v, want it admitted", ok, perr)
		}
	}
	for _, no := range []string{d.state + "/", d.state, d.token, d.root + "/token-link", d.root + "/state-link/adapters/", d.root + "/up-link/state/adapters/http-token"} {
		got, perr := l.admit("file://" + no)
		checkLocalRefusal(t, d, no, got, perr, "state directory")
	}
	got, perr := d.files(t).admit("file://" + d.root + "/page.html")
	checkLocalRefusal(t, d, "without roots", got, perr, protocol.LocalFileNoRoots)
}

func TestLoadLocalFilesRefuses(t *testing.T) {
	d := newLocalDisk(t)
	for _, tt := range []struct {
		name, root, problem string
	}{
		{"missing", filepath.Join(d.top, "missing"), "cannot be resolved"},
		{"a file", filepath.Join(d.root, "page.html"), "is not a folder"},
		{"the state directory", d.state, "state directory"},
		{"inside the state directory", filepath.Join(d.state, "adapters"), "state directory"},
		{"a symlink into the state directory", filepath.Join(d.root, "state-link"), "state directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p policy.Policy
			p.LocalFiles.AllowedRoots = []string{d.root, tt.root}
			_, err := loadLocalFiles(p, statedir.Dir(d.state))
			var pe *policy.Error
			if !errors.As(err, &pe) {
				t.Fatalf("loadLocalFiles(%s) = %v, want *policy.Error", tt.root, err)
			}
			want := fmt.Sprintf(`policy key "local_files.allowed_roots" entry 1 %q: `, tt.root)
			if pe.Key != rootsKey || pe.Path != statedir.Dir(d.state).Policy() || !strings.HasPrefix(pe.Problem, want) || !strings.Contains(pe.Problem, tt.problem) {
				t.Errorf("refusal %+v, want key %s, the policy file, %q and %q", pe, rootsKey, want, tt.problem)
			}
		})
	}
	// A root given through a symlink, or with a trailing slash, is the folder.
	l := d.files(t, filepath.Join(d.root, "up-link", "root")+"/")
	if _, perr := l.admit("file://" + d.root + "/page.html"); perr != nil {
		t.Errorf("a root named through a symlink does not admit its page: %v", perr)
	}
}

// Explicit targets: without roots every local file is refused and
// reaches neither the store nor the extension; with a root, the page in
// it opens and navigates as its canonical URL, and the welcome tells the
// extension to ask about file: requests.
func TestLocalFileTargets(t *testing.T) {
	r := startRig(t)
	c := &rigClient{r.client()}
	if e := callErr(t, c.Client, protocol.MethodOpen, map[string]any{"url": "file:///etc/passwd", "mode": "create"}); e.Code != protocol.CodeLocalFileDenied || e.Outcome != protocol.OutcomeNotStarted || e.Message != protocol.LocalFileNoRoots {
		t.Fatalf("open without roots: %+v", e)
	}
	if count(r.ext.seen(), protocol.NativeOpen) != 0 || r.ext.welcome.LocalFiles {
		t.Fatalf("without roots: requests %v, welcome %+v", r.ext.seen(), r.ext.welcome)
	}

	d := newLocalDisk(t)
	dir := statedir.Dir(d.state)
	if err := os.WriteFile(dir.Policy(), []byte(fmt.Sprintf(`{"local_files":{"allowed_roots":[%q]}}`, d.root)), 0o600); err != nil {
		t.Fatal(err)
	}
	r = startRig(t, withDir(dir))
	r.ext.mu.Lock()
	welcomed := r.ext.welcome.LocalFiles
	r.ext.mu.Unlock()
	if !welcomed {
		t.Fatalf("the welcome does not say local folders are admitted")
	}
	c, tab := openOneAt(t, r, "file://localhost"+d.root+"/in-link.html")
	var opened protocol.ExtOpenParams
	json.Unmarshal(r.ext.lastParams(protocol.NativeOpen), &opened)
	if opened.URL != "file://"+d.root+"/page.html" {
		t.Fatalf("the extension was sent %q, want the canonical URL", opened.URL)
	}
	for _, target := range []string{"file:///etc/passwd", "file://" + d.token, "file://" + d.root + "/token-link", "view-source:file://" + d.root + "/page.html"} {
		e := callErr(t, c.Client, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1,
			"actions": []any{map[string]any{"kind": "click", "ref": "e1"}, map[string]any{"kind": "navigate", "url": target}}})
		if e.Code != protocol.CodeLocalFileDenied || e.Outcome != protocol.OutcomeNotStarted || strings.Contains(e.Message, d.top) {
			t.Fatalf("navigate to %s: %+v", target, e)
		}
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 0 {
		t.Fatalf("a refused batch reached the extension: %v", r.ext.seen())
	}
	rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1,
		"actions": []any{map[string]any{"kind": "navigate", "url": "file://" + d.root + "/sub"}}})
	var acted protocol.ExtActParams
	json.Unmarshal(r.ext.lastParams(protocol.NativeAct), &acted)
	if len(acted.Actions) != 1 || acted.Actions[0].URL != "file://"+d.root+"/sub/" {
		t.Fatalf("the extension was sent %+v, want the folder's canonical URL", acted.Actions)
	}
}

// The extension's question about a file: request of a page is answered
// on the native link with a response of its id: admitted, or
// local_file_denied; an unknown method is refused.
func TestLinkAnswersLocalFileRequests(t *testing.T) {
	d := newLocalDisk(t)
	h := &Host{local: d.files(t, d.root), log: log.New(io.Discard, "", 0)}
	toHostR, toHostW := io.Pipe()
	fromHostR, fromHostW := io.Pipe()
	l := newLink(nativemsg.NewReader(toHostR), nativemsg.NewWriter(fromHostW), h.log)
	l.answer = h.answerExtension
	go l.run(func(string, json.RawMessage) {})
	t.Cleanup(func() { toHostW.Close(); fromHostR.Close() })
	ext, answers := nativemsg.NewWriter(toHostW), nativemsg.NewReader(fromHostR)
	ask := func(id int64, method, url string) protocol.NativeResponse {
		t.Helper()
		if err := ext.Write(protocol.NativeRequest{Type: protocol.NativeTypeRequest, ID: id, Method: method, Params: protocol.LocalFileParams{URL: url}}); err != nil {
			t.Fatal(err)
		}
		body, err := answers.Read()
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Type   string          `json:"type"`
			ID     int64           `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *protocol.Error `json:"error"`
		}
		if err := json.Unmarshal(body, &resp); err != nil || resp.Type != protocol.NativeTypeResponse || resp.ID != id {
			t.Fatalf("answer %s: %v", body, err)
		}
		return protocol.NativeResponse{ID: resp.ID, Result: string(resp.Result), Error: resp.Error}
	}
	if resp := ask(7, protocol.NativeLocalFile, "file://"+d.root+"/page.html"); resp.Error != nil || resp.Result != `{"admitted":true}` {
		t.Fatalf("the page in the root: %+v", resp)
	}
	if resp := ask(8, protocol.NativeLocalFile, "file://"+d.root+"/token-link"); resp.Error == nil || resp.Error.Code != protocol.CodeLocalFileDenied {
		t.Fatalf("a symlink into the state directory: %+v", resp)
	}
	if resp := ask(9, "open", "file:///"); resp.Error == nil || resp.Error.Code != protocol.CodeUnknownMethod {
		t.Fatalf("an unknown extension request: %+v", resp)
	}
}

// FuzzLocalFilesAdmit: whatever admit lets through lies in the root and
// outside the state directory (the root here holds symlinks and hard
// links toward both), and its canonical URL is admitted as itself.
func FuzzLocalFilesAdmit(f *testing.F) {
	for _, seed := range []string{"page.html", "", "sub", "token-link", "state-link/adapters/http-token", "%2e%2e/state/adapters/http-token",
		"up-link/state/", "up-link/root/page.html", "in-link.html#x", "with%20space.html?q", "hard-token", "./page.html", "sub/..%2f"} {
		f.Add("/root/"+seed, false)
		f.Add(seed, true)
	}
	d := newLocalDisk(f)
	l := d.files(f, d.root)
	f.Fuzz(func(t *testing.T, rest string, raw bool) {
		target := "file://" + d.top + rest
		if raw {
			target = rest
		}
		got, perr := l.admit(target)
		if perr != nil {
			return
		}
		path, _, why := filePath(got)
		if why != "" {
			t.Fatalf("admit(%q) = %q, which does not read as a path: %s", target, got, why)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil || !(real == d.root || strings.HasPrefix(real, d.root+"/")) || strings.HasPrefix(real+"/", d.state+"/") {
			t.Fatalf("admit(%q) = %q, which resolves to %q (%v): outside %s", target, got, real, err, d.root)
		}
		if again, perr := l.admit(got); perr != nil || again != got {
			t.Fatalf("admit(%q) = %q, which admits as %q, %v", target, got, again, perr)
		}
	})
}
