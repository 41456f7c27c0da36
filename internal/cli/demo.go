package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/agenttab/agenttab/internal/mcpserver"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

func init() {
	register("demo", "install into a scratch browser profile, launch it, and drive a short agent session through MCP", runDemo)
}

// linkRef finds the demo page's link in a snapshot.
var linkRef = regexp.MustCompile(`- link "next"[^\n]*\[ref=(e\d+)\]`)

const demoPage = `<!doctype html><html><head><title>AgentTab demo: %s</title></head>
<body><h1>AgentTab demo page %s</h1><p>Served by agenttab demo on loopback.</p><a href="/b">next</a></body></html>`

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	headful := fs.Bool("headful", false, "show the browser window (default: headless unless a display is available)")
	keep := fs.Bool("keep", false, "keep the scratch profile and state directories")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := demo(ctx, stdout, *headful || chromium.HasDisplay(), *keep); err != nil {
		fmt.Fprintf(stdout, "demo failed: %v\n", err)
		return 1
	}
	return 0
}

// stepper prints each step with how long it took.
type stepper struct {
	w     io.Writer
	start time.Time
}

func (s *stepper) do(name string, fn func() (string, error)) error {
	t := time.Now()
	detail, err := fn()
	d := time.Since(t)
	if err != nil {
		fmt.Fprintf(s.w, "  ✗ %-38s %8s  %v\n", name, d.Round(time.Millisecond), err)
		return fmt.Errorf("%s: %w", name, err)
	}
	fmt.Fprintf(s.w, "  ✓ %-38s %8s  %s\n", name, d.Round(100*time.Microsecond), detail)
	return nil
}

func demo(ctx context.Context, w io.Writer, headful, keep bool) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	browser, err := chromium.Find()
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "agenttab-demo-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(w, "scratch directory kept: %s\n", scratch)
	} else {
		defer os.RemoveAll(scratch)
	}
	// The demo never touches the user's real state unless asked to:
	// AGENTTAB_STATE_DIR wins, else a scratch state directory, so a host
	// already serving the user's browser is not disturbed.
	state := os.Getenv("AGENTTAB_STATE_DIR")
	if state == "" {
		state = filepath.Join(scratch, "state")
	}
	if err := statedir.Ensure(state); err != nil {
		return err
	}
	profile := filepath.Join(scratch, "profile")
	self, err := selfPath()
	if err != nil {
		return err
	}
	env := append(os.Environ(), "AGENTTAB_STATE_DIR="+state)
	fmt.Fprintf(w, "AgentTab %s demo\n  browser: %s\n  state:   %s\n  profile: %s\n\n", buildinfo.Version, browser, state, profile)
	s := &stepper{w: w, start: time.Now()}

	var inst install.Result
	if err := s.do("install into the scratch profile", func() (string, error) {
		inst, err = install.Install(install.Options{UserDataDir: profile, StateDir: state, HostPath: self})
		return "extension " + inst.ExtensionID, err
	}); err != nil {
		return err
	}

	pages, stopPages, err := serveDemoPages()
	if err != nil {
		return err
	}
	defer stopPages()

	var stopBrowser func()
	if err := s.do("launch the browser with the extension", func() (string, error) {
		stopBrowser, err = launchBrowser(browser, chromium.Args(chromium.LaunchOptions{
			Headless: !headful, UserDataDir: profile, ExtensionDir: inst.ExtensionDir,
		}), env, filepath.Join(scratch, "browser.log"))
		if headful {
			return "windowed", err
		}
		return "headless", err
	}); err != nil {
		return err
	}
	defer stopBrowser()

	if err := s.do("host started by Chrome, ready", func() (string, error) {
		return waitReady(ctx, statedir.Dir(state))
	}); err != nil {
		return err
	}

	var session *mcp.ClientSession
	if err := s.do("agent connects over MCP (stdio)", func() (string, error) {
		cmd := exec.Command(self, "mcp")
		cmd.Env = env
		client := mcp.NewClient(&mcp.Implementation{Name: "agenttab-demo", Version: buildinfo.Version}, nil)
		session, err = client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return "", err
		}
		tools, err := session.ListTools(ctx, nil)
		if err != nil {
			return "", err
		}
		var names []string
		for _, t := range tools.Tools {
			names = append(names, t.Name)
		}
		return "tools: " + strings.Join(names, ", "), nil
	}); err != nil {
		return err
	}
	defer session.Close()

	var (
		first protocol.OpenResult
		page  protocol.SnapshotResult
	)
	steps := []struct {
		name string
		fn   func() (string, error)
	}{
		{"browser_open (background tab)", func() (string, error) {
			_, err := callDemoTool(ctx, session, protocol.MethodOpen, map[string]any{"url": pages + "/a"}, &first)
			return fmt.Sprintf("%s %q in group %q, route %s", first.Tab.Tab, first.Tab.Title, first.Task.Label, first.Tab.AutomationRoute), err
		}},
		{"browser_snapshot", func() (string, error) {
			res, err := callDemoTool(ctx, session, protocol.MethodSnapshot, map[string]any{"tab": first.Tab.Tab}, &page)
			if err == nil {
				page.Text = mcpserver.SnapshotTree(res)
			}
			return fmt.Sprintf("%d lines at revision %d", len(strings.Split(strings.TrimSpace(page.Text), "\n")), page.PageRevision), err
		}},
		{"browser_act (click the link)", func() (string, error) {
			m := linkRef.FindStringSubmatch(page.Text)
			if m == nil {
				return "", fmt.Errorf("no link with a ref in the snapshot:\n%s", page.Text)
			}
			var r protocol.ActResult
			args := map[string]any{"tab": first.Tab.Tab, "expected_page_revision": page.PageRevision, "actions": []any{map[string]any{"kind": "click", "ref": m[1]}}}
			if _, err := callDemoTool(ctx, session, protocol.MethodAct, args, &r); err != nil {
				return "", err
			}
			if len(r.Steps) != 1 || r.Steps[0].Navigation != protocol.NavigationCommitted {
				return "", fmt.Errorf("the click did not navigate: %+v", r.Steps)
			}
			return fmt.Sprintf("%s, navigation %s, now %q at revision %d", r.Steps[0].Outcome, r.Steps[0].Navigation, r.Title, r.PageRevision), nil
		}},
		{"browser_open (second tab)", func() (string, error) {
			var r protocol.OpenResult
			_, err := callDemoTool(ctx, session, protocol.MethodOpen, map[string]any{"url": pages + "/b"}, &r)
			return fmt.Sprintf("%s %q", r.Tab.Tab, r.Tab.Title), err
		}},
		{"browser_tabs", func() (string, error) {
			var r protocol.TabsResult
			if _, err := callDemoTool(ctx, session, protocol.MethodTabs, map[string]any{}, &r); err != nil {
				return "", err
			}
			if len(r.Tabs) != 2 {
				return "", fmt.Errorf("the task owns %d tabs, want 2", len(r.Tabs))
			}
			return fmt.Sprintf("%d owned tabs", len(r.Tabs)), nil
		}},
		{"browser_finish (close_tabs)", func() (string, error) {
			var r protocol.FinishResult
			_, err := callDemoTool(ctx, session, protocol.MethodFinish, map[string]any{"close_tabs": true}, &r)
			return fmt.Sprintf("released %d, closed %d", r.Released, r.Closed), err
		}},
	}
	for _, st := range steps {
		if err := s.do(st.name, st.fn); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\ndemo passed in %s\n", time.Since(s.start).Round(time.Millisecond))
	return nil
}

// callDemoTool decodes a tool's structured content into out; the result
// itself is returned for what is only in its text (a snapshot's tree).
func callDemoTool(ctx context.Context, s *mcp.ClientSession, name string, args map[string]any, out any) (*mcp.CallToolResult, error) {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	if res.IsError {
		// A failed tool is an error object, or (browser_act) a result whose
		// error field is the failed step's.
		var failed struct {
			protocol.Error
			Step *protocol.Error `json:"error"`
		}
		json.Unmarshal(raw, &failed)
		if failed.Code == "" && failed.Step != nil {
			return nil, failed.Step
		}
		return nil, &failed.Error
	}
	return res, json.Unmarshal(raw, out)
}

func serveDemoPages() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	for _, name := range []string{"a", "b"} {
		mux.HandleFunc("/"+name, func(rw http.ResponseWriter, _ *http.Request) {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(rw, demoPage, name, name)
		})
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// waitReady polls the host's status until it admits browser work.
func waitReady(ctx context.Context, dir statedir.Dir) (string, error) {
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		st, err := fetchStatus(ctx, dir)
		if err == nil && st.Lifecycle == protocol.LifecycleReady {
			return fmt.Sprintf("extension %s %s", st.ExtensionID, st.ExtensionVersion), nil
		}
		if err == nil {
			err = fmt.Errorf("lifecycle %s", st.Lifecycle)
		}
		last = err
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return "", errors.Join(errors.New("the host did not become ready within 30 s; see STATE/host.log"), last)
}
