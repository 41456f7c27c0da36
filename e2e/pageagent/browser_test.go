package pageagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/extbuild"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// One Chromium and one page server for the package: a launch costs about
// half a second (notes/chromium.md), a tab a few milliseconds.
var (
	browserCtx context.Context
	baseURL    string
	bundle     string
)

// SnapshotRequest and FrameSnapshot mirror src/shared/page-agent.ts.
type SnapshotRequest struct {
	Mode     string `json:"mode"`
	NextID   int    `json:"nextId"`
	MaxChars int    `json:"maxChars"`
	Indent   string `json:"indent"`
}

type FrameSnapshot struct {
	Text       string `json:"text"`
	Truncated  bool   `json:"truncated"`
	TotalChars int    `json:"totalChars"`
	NextID     int    `json:"nextId"`
	Frames     []struct {
		Ref  string `json:"ref"`
		Line int    `json:"line"`
	} `json:"frames"`
	Title   string `json:"title"`
	URL     string `json:"url"`
	Clipped *struct {
		Texts int `json:"texts"`
		Chars int `json:"chars"`
	} `json:"clipped"`
}

type TargetInfo struct {
	OK          bool    `json:"ok"`
	Reason      string  `json:"reason"`
	X           float64 `json:"x"`
	Y           float64 `json:"y"`
	Width       float64 `json:"width"`
	Height      float64 `json:"height"`
	Sensitive   bool    `json:"sensitive"`
	Editable    bool    `json:"editable"`
	Description string  `json:"description"`
}

type HitTest struct {
	OK       bool   `json:"ok"`
	Covering string `json:"covering"`
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// Without a browser these tests fail with the command that installs
	// one (CONTRIBUTING.md: they never skip).
	exec, err := chromium.Find()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := serve()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	baseURL = srv.URL
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exec),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("window-size", "1280,800"),
	}
	dir, err := os.MkdirTemp("", "agenttab-pageagent-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	opts = append(opts, chromedp.UserDataDir(dir))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "starting %s: %v\n", exec, err)
		return 1
	}
	browserCtx = ctx
	return m.Run()
}

var (
	bundleOnce sync.Once
	bundleErr  error
)

// agentBundle builds the page agent once per test binary. It runs inside
// the tests (not TestMain), where go test records the files a test opens:
// readSources makes the test cache notice TypeScript changes, which
// esbuild reads out of its sight.
func agentBundle(t testing.TB) string {
	t.Helper()
	bundleOnce.Do(func() {
		ext, err := extbuild.ExtensionDir()
		if err == nil {
			err = readSources(ext)
		}
		if err == nil {
			bundle, err = extbuild.PageAgentBundle(ext)
		}
		bundleErr = err
	})
	if bundleErr != nil {
		t.Fatal(bundleErr)
	}
	return bundle
}

func readSources(ext string) error {
	return filepath.WalkDir(filepath.Join(ext, "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		_, err = os.ReadFile(p)
		return err
	})
}

// serve serves testdata/ and the generated pages of notes/peers.md on
// loopback. Two host names reach it (127.0.0.1 and localhost), so a page
// can embed a cross-origin frame.
func serve() (*httptest.Server, error) {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	// The real widget libraries the corpus pages are built with
	// (e2e/corpus/package.json), as harness.ServeCorpus serves them.
	mux.Handle("/vendor/", http.StripPrefix("/vendor/", http.FileServer(http.Dir(harness.CorpusModules()))))
	// The corpus pages of the end-to-end tasks (e2e/corpus/pages), built
	// with those libraries.
	mux.Handle("/corpus/", http.StripPrefix("/corpus/", http.FileServer(http.Dir(filepath.Join(harness.CorpusModules(), "..", "pages")))))
	mux.HandleFunc("/gen", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n <= 0 {
			http.Error(w, "n", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, harness.GenPage(n))
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	return srv, nil
}

// tab is one page with the agent installed in its isolated world.
type tab struct {
	ctx    context.Context
	world  runtime.ExecutionContextID
	cancel context.CancelFunc
}

// open loads path in a new tab and installs the page agent in its main frame.
func open(t testing.TB, path string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	p := &tab{ctx: ctx, cancel: cancel}
	if err := chromedp.Do(ctx, chromedp.Navigate(baseURL+path)); err != nil {
		t.Fatalf("navigate %s: %v", path, err)
	}
	p.install(t, p.mainFrame(t))
	return p
}

func (p *tab) mainFrame(t testing.TB) cdp.FrameID {
	t.Helper()
	res, err := chromedp.Call(p.ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	return res.FrameTree.Frame.ID
}

// childFrame returns the id of the first child frame whose URL ends in suffix.
func (p *tab) childFrame(t testing.TB, suffix string) cdp.FrameID {
	t.Helper()
	res, err := chromedp.Call(p.ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.FrameTree.ChildFrames {
		if strings.HasSuffix(c.Frame.URL, suffix) {
			return c.Frame.ID
		}
	}
	t.Fatalf("no child frame loads %s", suffix)
	return ""
}

// install creates AgentTab's isolated world in frame and evaluates the
// bundle there, as the service worker does.
func (p *tab) install(t testing.TB, frame cdp.FrameID) {
	t.Helper()
	res, err := chromedp.Call(p.ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: "agenttab"})
	if err != nil {
		t.Fatal(err)
	}
	p.world = res.ExecutionContextID
	p.eval(t, agentBundle(t), nil)
}

// evalRaw evaluates expr in the isolated world and returns its JSON value.
func (p *tab) evalRaw(expr string) ([]byte, error) {
	res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression:    expr,
		ContextID:     p.world,
		ReturnByValue: new(true),
	})
	if err != nil {
		return nil, err
	}
	if exc := res.ExceptionDetails; exc != nil {
		msg := exc.Text
		if exc.Exception != nil {
			msg += " " + exc.Exception.Description
		}
		return nil, fmt.Errorf("exception: %s", msg)
	}
	if res.Result == nil {
		return nil, nil
	}
	return res.Result.Value, nil
}

// eval evaluates expr in the isolated world and decodes its JSON value into out.
func (p *tab) eval(t testing.TB, expr string, out any) {
	t.Helper()
	v, err := p.evalRaw(expr)
	if err == nil && out != nil {
		err = json.Unmarshal(v, out)
	}
	if err != nil {
		t.Fatalf("evaluating %.80s: %v", expr, err)
	}
}

// pageEval evaluates expr in the page's own world (the page's scripts).
func (p *tab) pageEval(t testing.TB, expr string, out any) {
	t.Helper()
	res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
	if err == nil && res.ExceptionDetails != nil {
		err = fmt.Errorf("exception: %s", res.ExceptionDetails.Text)
	}
	if err == nil && out != nil && res.Result != nil {
		err = json.Unmarshal(res.Result.Value, out)
	}
	if err != nil {
		t.Fatalf("page evaluating %.80s: %v", expr, err)
	}
}

func (p *tab) snapshot(t testing.TB, req SnapshotRequest) FrameSnapshot {
	t.Helper()
	if req.Mode == "" {
		req.Mode = "interactive"
	}
	if req.MaxChars == 0 {
		req.MaxChars = 2_000_000
	}
	arg, _ := json.Marshal(req)
	var s FrameSnapshot
	p.eval(t, "__agenttab.snapshot("+string(arg)+")", &s)
	return s
}

// click presses and releases the left button at (x, y) of the main frame's viewport.
func (p *tab) click(t testing.TB, x, y float64) {
	t.Helper()
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		_, err := chromedp.Call(p.ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// call calls __agenttab.fn(args...) and decodes the result into out.
func (p *tab) call(t testing.TB, out any, fn string, args ...any) {
	t.Helper()
	parts := make([]string, len(args))
	for i, a := range args {
		b, _ := json.Marshal(a)
		parts[i] = string(b)
	}
	p.eval(t, "__agenttab."+fn+"("+strings.Join(parts, ",")+")", out)
}
