package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// uploadPage has a file input whose form posts multipart to /upload; the
// page counts the input's input and change events and lists its files.
const uploadPage = `<!doctype html><title>Upload</title>
<form method="post" action="/upload" enctype="multipart/form-data">
<label>Attachment <input type="file" name="doc" id="f"></label>
<label>Note <input name="note" value="hi"></label>
<button>Send</button></form>
<p id="st">inputs 0 changes 0 files none</p>
<script>
let inputs = 0, changes = 0;
const f = document.getElementById('f');
const show = () => { document.getElementById('st').textContent = 'inputs ' + inputs + ' changes ' + changes + ' files ' + ([...f.files].map((x) => x.name + ':' + x.size).join(',') || 'none'); };
f.addEventListener('input', () => { inputs++; show(); });
f.addEventListener('change', () => { changes++; show(); });
</script>`

// uploadServer is what the test server got from the form.
type uploadServer struct {
	mu                    sync.Mutex
	name, typ, note, path string
	data                  []byte
	posts                 int
}

func (r *uploadServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/upload" {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, uploadPage)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.posts++
	file, hdr, err := req.FormFile("doc")
	if err == nil {
		r.data, _ = io.ReadAll(file)
		r.name, r.typ = hdr.Filename, hdr.Header.Get("Content-Type")
	}
	r.note = req.FormValue("note")
	w.Header().Set("Content-Type", "text/html")
	io.WriteString(w, `<!doctype html><title>Received</title><h1>Received</h1>`)
}

// uploadFixture is a started AgentTab with an admitted uploads folder.
type uploadFixture struct {
	e       *harness.Env
	s       *mcp.ClientSession
	root    string
	outside string
	base    string
	srv     *uploadServer
}

func newUploadFixture(t *testing.T, policy string) *uploadFixture {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	if policy == "" {
		policy = fmt.Sprintf(`{"uploads":{"dlp_allowed_roots":[%q],"max_bytes":1000}}`, root)
	}
	e := harness.Start(t, harness.WithPolicy(policy))
	f := &uploadFixture{e: e, root: root, outside: outside, srv: &uploadServer{}}
	f.base = e.Serve(f.srv)
	f.s = e.MCP(t)
	return f
}

func (f *uploadFixture) open(t *testing.T) (tab string, rev int64, ref string) {
	t.Helper()
	tab = handleOf(t, ok(t, f.s, protocol.MethodOpen, map[string]any{"url": f.base + "/"}))
	text, rev, _ := snap(t, f.s, tab, nil)
	return tab, rev, refOfAny(t, text, "Attachment")
}

// pageStatus is the page's own line about its file input.
func (f *uploadFixture) pageStatus(t *testing.T, tab string) string {
	t.Helper()
	text, _, _ := snap(t, f.s, tab, map[string]any{"mode": "full"})
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "inputs ") {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("no status line in:\n%s", text)
	return ""
}

// stagedCopies lists the files under STATE/uploads.
func (f *uploadFixture) stagedCopies(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(f.e.StateDir, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func write(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A real upload: the server receives the file with its name, the type
// Chrome derives from its extension and its bytes; the input fired input
// and change once; the copy is staged under STATE/uploads with the name
// kept; neither the user's path nor the copy's appears in any file of the
// state directory (audit.jsonl, host.log, state.db and its WAL) or in the
// results.
func TestUploadFileReachesTheServer(t *testing.T) {
	f := newUploadFixture(t, "")
	setYolo(t, f.e, true)
	data := []byte("%PDF-1.4 agenttab upload canary 5e1f\n")
	src := write(t, filepath.Join(f.root, "Quarterly report.pdf"), data)
	tab, rev, ref := f.open(t)
	res := act(t, f.s, tab, rev, step("upload_file", "ref", ref, "path", src))
	st := stepsOf(res)[0]
	if st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("upload_file: %v", res)
	}
	if got := f.pageStatus(t, tab); !strings.Contains(got, "inputs 1 changes 1 files Quarterly report.pdf:"+fmt.Sprint(len(data))) {
		t.Errorf("the page saw: %s", got)
	}
	copies := f.stagedCopies(t)
	if len(copies) != 1 || filepath.Base(copies[0]) != "Quarterly report.pdf" {
		t.Fatalf("staged copies: %v", copies)
	}
	staged := copies[0]
	if fi, _ := os.Stat(staged); fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy's mode is %v", fi.Mode().Perm())
	}
	text, rev2, _ := snap(t, f.s, tab, nil)
	act(t, f.s, tab, rev2, step("click", "ref", refOf(t, text, "button", "Send")))
	f.e.WaitFor(t, "the form's post", 10e9, func() bool { f.srv.mu.Lock(); defer f.srv.mu.Unlock(); return f.srv.posts == 1 })
	f.srv.mu.Lock()
	if f.srv.name != "Quarterly report.pdf" || f.srv.typ != "application/pdf" || !bytes.Equal(f.srv.data, data) || f.srv.note != "hi" {
		t.Errorf("the server got name %q type %q note %q bytes %q", f.srv.name, f.srv.typ, f.srv.note, f.srv.data)
	}
	f.srv.mu.Unlock()
	for _, s := range []string{fmt.Sprint(res), fmt.Sprint(st)} {
		if strings.Contains(s, f.root) || strings.Contains(s, f.e.StateDir) {
			t.Errorf("a result holds a path: %s", s)
		}
	}
	noPathInState(t, f.e.StateDir, src, staged)
}

// noPathInState: no file under the state directory holds either path
// (the staged copy is named by its own folder and name, not by contents).
func noPathInState(t *testing.T, state string, paths ...string) {
	t.Helper()
	checked := 0
	filepath.WalkDir(state, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, filepath.Join(state, "uploads")) || d.Type()&os.ModeSocket != 0 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		checked++
		for _, path := range paths {
			if bytes.Contains(b, []byte(path)) {
				t.Errorf("%s holds %s", p, path)
			}
		}
		return nil
	})
	for _, name := range []string{"audit.jsonl", "host.log", "state.db"} {
		if _, err := os.Stat(filepath.Join(state, name)); err != nil {
			t.Errorf("%s was not there to check: %v", name, err)
		}
	}
}

// Each refusal, provoked for real through MCP: upload_denied (or
// upload_too_large), not_started before any step, nothing staged, the
// input still empty and nothing fired on the page.
func TestUploadFileRefusals(t *testing.T) {
	f := newUploadFixture(t, "")
	setYolo(t, f.e, true)
	ok1 := write(t, filepath.Join(f.root, "ok.txt"), []byte("fine"))
	outside := write(t, filepath.Join(f.outside, "secret.txt"), []byte("secret"))
	link := filepath.Join(f.root, "link.txt")
	os.Symlink(outside, link)
	hard := write(t, filepath.Join(f.root, "hard.txt"), []byte("hard"))
	os.Link(hard, filepath.Join(f.root, "hard-other.txt"))
	folder := filepath.Join(f.root, "folder")
	os.Mkdir(folder, 0o700)
	fifo := filepath.Join(f.root, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := write(t, filepath.Join(f.root, "big.bin"), make([]byte, 1001))
	rel, _ := filepath.Rel(f.root, outside)
	tab, rev, ref := f.open(t)
	cases := []struct {
		what, path string
		code       protocol.ErrorCode
	}{
		{"outside the roots", outside, protocol.CodeUploadDenied},
		{"a .. escaping the root", f.root + "/" + rel, protocol.CodeUploadDenied},
		{"a symlink", link, protocol.CodeUploadDenied},
		{"a hard link", hard, protocol.CodeUploadDenied},
		{"a directory", folder, protocol.CodeUploadDenied},
		{"a FIFO", fifo, protocol.CodeUploadDenied},
		{"over max_bytes", big, protocol.CodeUploadTooLarge},
		// On Linux (ext4, tmpfs) names are bytes: another case is another, absent name.
		{"another case", filepath.Join(f.root, "OK.TXT"), protocol.CodeUploadDenied},
		{"a relative path", "ok.txt", protocol.CodeUploadDenied},
	}
	for _, c := range cases {
		// A step before it would run: the whole batch is refused first.
		res := actRefused(t, f.s, tab, rev, c.code, beforeSteps, step("scroll", "delta_y", 10), step("upload_file", "ref", ref, "path", c.path))
		if !strings.Contains(fmt.Sprint(res["message"]), "step 1 (upload_file)") || strings.Contains(fmt.Sprint(res["message"]), f.root) || strings.Contains(fmt.Sprint(res["message"]), f.outside) {
			t.Errorf("%s: the refusal %v does not name the step, or names the path", c.what, res["message"])
		}
		if got := f.stagedCopies(t); len(got) != 0 {
			t.Errorf("%s: staged %v", c.what, got)
		}
	}
	if got := f.pageStatus(t, tab); !strings.HasSuffix(got, "inputs 0 changes 0 files none") {
		t.Errorf("after the refusals the page saw: %s", got)
	}
	_ = ok1
	noPathInState(t, f.e.StateDir, outside, f.root+"/"+rel, link, hard, fifo, big)
}

// Without uploads.dlp_allowed_roots every upload is refused.
func TestUploadFileWithoutRoots(t *testing.T) {
	f := newUploadFixture(t, `{}`)
	src := write(t, filepath.Join(f.root, "ok.txt"), []byte("fine"))
	tab, rev, ref := f.open(t)
	actRefused(t, f.s, tab, rev, protocol.CodeUploadDenied, beforeSteps, step("upload_file", "ref", ref, "path", src))
	if got := f.stagedCopies(t); len(got) != 0 {
		t.Errorf("staged %v", got)
	}
	if got := f.pageStatus(t, tab); !strings.HasSuffix(got, "inputs 0 changes 0 files none") {
		t.Errorf("the page saw: %s", got)
	}
}

// With YOLO mode off an upload stops as a stage (effect upload) and sets
// nothing; its copy is held for the stage, and the commit after the
// user's approval sets it.
func TestUploadFileStagesWithYoloOff(t *testing.T) {
	f := newUploadFixture(t, "")
	setYolo(t, f.e, false)
	src := write(t, filepath.Join(f.root, "contract.txt"), []byte("terms"))
	tab, rev, ref := f.open(t)
	res := act(t, f.s, tab, rev, step("upload_file", "ref", ref, "path", src))
	st := stepsOf(res)[0]
	stage, _ := st["stage"].(map[string]any)
	if st["outcome"] != string(protocol.OutcomeStaged) || stage == nil || stage["effect"] != string(protocol.EffectUpload) {
		t.Fatalf("upload with YOLO off: %v", res)
	}
	if got := f.pageStatus(t, tab); !strings.HasSuffix(got, "inputs 0 changes 0 files none") {
		t.Errorf("the page saw: %s", got)
	}
	// The copy waits for the stage (its record keeps no path), and the
	// commit after the user's approval sets that copy on the input.
	if got := f.stagedCopies(t); len(got) != 1 {
		t.Errorf("the staged upload's copy: %v, want one held for the stage", got)
	}
	reviewFirstStage(t, f.e, popupApprove)
	committed := ok(t, f.s, protocol.MethodCommit, map[string]any{"stage": stage["stage"]})
	if committed["effect"] != string(protocol.EffectUpload) {
		t.Fatalf("commit: %v", committed)
	}
	if got := f.pageStatus(t, tab); !strings.Contains(got, "contract.txt") {
		t.Errorf("after the commit the page saw: %s", got)
	}
	noPathInState(t, f.e.StateDir, src)
}

// On the scripting route (Chrome refuses the debugger, automation on) an
// upload fails debugger_unavailable, not_started, and nothing is set.
func TestUploadFileRefusedOnTheScriptingRoute(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	e, blocker := blockedPage(t, harness.WithPolicy(fmt.Sprintf(`{"uploads":{"dlp_allowed_roots":[%q]}}`, root)))
	base := e.ServePages(map[string]string{"/": strings.Replace(uploadPage, "</script>", "</script>"+blocker, 1)})
	s := e.MCP(t)
	setYolo(t, e, true)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	setAutomation(t, e, true)
	text, rev, _ := snap(t, s, tab, nil)
	src := write(t, filepath.Join(root, "ok.txt"), []byte("fine"))
	actRefused(t, s, tab, rev, protocol.CodeDebuggerUnavailable, 0, step("upload_file", "ref", refOfAny(t, text, "Attachment"), "path", src))
	full, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if !strings.Contains(full, "inputs 0 changes 0 files none") {
		t.Errorf("the page saw:\n%s", full)
	}
	var left []string
	filepath.WalkDir(filepath.Join(e.StateDir, "uploads"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) != 0 {
		t.Errorf("a copy that never reached the page stayed: %v", left)
	}
}
