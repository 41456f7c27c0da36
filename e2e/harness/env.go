package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/protocol"
)

// readyTimeout bounds launch-to-ready. Launch to the first host message
// takes about 0.5 s (up to 1.5 s) on the measured machines
// (notes/chromium.md); 20 s leaves room for a loaded CI runner without
// letting a broken start hang the suite.
const readyTimeout = 20 * time.Second

// stateEnv is the variable every AgentTab process reads its state
// directory from (DESIGN.md "State directory").
const stateEnv = "AGENTTAB_STATE_DIR"

// InstallResult is what `agenttab install --json` prints.
type InstallResult struct {
	ExtensionDir string   `json:"extension_dir"`
	ExtensionID  string   `json:"extension_id"`
	Manifests    []string `json:"manifests"`
}

// Env is one test's AgentTab: its own state directory, its own Chromium
// profile, one running Chromium with the extension, and the host Chromium
// started.
type Env struct {
	// Bin is the agenttab binary under test.
	Bin string
	// StateDir is AGENTTAB_STATE_DIR for the host and every adapter.
	StateDir string
	// UserDataDir is Chromium's profile; the host manifest is in its
	// NativeMessagingHosts.
	UserDataDir string
	// Installed is what `agenttab install` reported.
	Installed InstallResult

	tb              testing.TB
	browserPath     string
	extraExtensions []string
	display         string    // an X display for a headful browser (headful.go); "" runs headless
	browserFlags    []string  // added to Chromium's command line (banner.go)
	browserEnv      []string  // added to Chromium's environment (banner.go)
	output          logBuffer // Chromium's stdout and stderr
	browser         *browserProc
	sw              serviceWorker

	mu   sync.Mutex
	logs []namedLog // MCP subprocesses' stderr
}

type namedLog struct {
	name string
	buf  *logBuffer
}

type config struct {
	policy      *string
	deferLaunch bool
	extra       []string
	display     string
	flags, env  []string // Chromium's extra switches and environment
}

// Option changes how Start sets up an Env.
type Option func(*config)

// WithPolicy writes content to STATE/policy.json (mode 0600, as the host
// demands) before the host starts.
func WithPolicy(content string) Option {
	return func(c *config) { c.policy = &content }
}

// WithExtension loads another unpacked extension beside AgentTab.
func WithExtension(dir string) Option {
	return func(c *config) { c.extra = append(c.extra, dir) }
}

// Unlaunched makes Start install but not launch the browser, so a test can
// use an adapter before the host exists; Launch starts it.
func Unlaunched() Option {
	return func(c *config) { c.deferLaunch = true }
}

// Start sets up and launches a complete AgentTab for t and returns when the
// host reports lifecycle "ready". Everything it starts stops, and
// everything it creates is removed, when t ends; when t failed, Chromium's
// output, STATE/host.log and every MCP server's stderr are logged first.
func Start(t testing.TB, opts ...Option) *Env {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	browserPath, err := chromium.Find()
	if err != nil {
		t.Fatalf("the end-to-end tests need a Chromium-family browser: %v", err)
	}
	e := newEnv(t)
	e.Bin = BuildBinary(t)
	if cfg.policy != nil {
		if err := os.WriteFile(filepath.Join(e.StateDir, "policy.json"), []byte(*cfg.policy), 0o600); err != nil {
			t.Fatalf("writing policy.json: %v", err)
		}
	}
	e.Installed = e.install(t)
	e.browserPath = browserPath
	e.extraExtensions = cfg.extra
	e.display = cfg.display
	e.browserFlags, e.browserEnv = cfg.flags, cfg.env
	if !cfg.deferLaunch {
		e.Launch(t)
	}
	return e
}

// Launch starts Chromium with the installed extension and returns when the
// host it starts is ready. Start calls it unless the Env is Unlaunched.
func (e *Env) Launch(t testing.TB) {
	t.Helper()
	e.launch(t, e.browserPath, e.Installed.ExtensionDir)
	e.waitReady(t)
}

// newEnv makes the two directories and registers the cleanups that must run
// after the browser is gone: dump on failure, then remove the directories.
func newEnv(t testing.TB) *Env {
	t.Helper()
	e := &Env{tb: t}
	// Not t.TempDir: the socket path STATE/core.sock must fit the 104-108
	// byte limit of sun_path, and t.TempDir embeds the (long) test name.
	// os.MkdirTemp makes the directory 0700, as the state directory must be.
	for _, d := range []*string{&e.StateDir, &e.UserDataDir} {
		dir, err := os.MkdirTemp("", "agenttab-e2e-")
		if err != nil {
			t.Fatal(err)
		}
		*d = dir
	}
	t.Cleanup(func() {
		for _, dir := range []string{e.StateDir, e.UserDataDir} {
			if err := removeAllRetry(dir); err != nil {
				t.Errorf("removing %s (is a host or browser process still writing there?): %v", dir, err)
			}
		}
	})
	t.Cleanup(e.dumpOnFailure)
	return e
}

// install runs `agenttab install` as a user would, into this Env's profile
// only.
func (e *Env) install(t testing.TB) InstallResult {
	t.Helper()
	cmd := exec.Command(e.Bin, "install", "--user-data-dir", e.UserDataDir, "--json")
	cmd.Env = append(os.Environ(), stateEnv+"="+e.StateDir)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("agenttab install: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr)
	}
	var res InstallResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("agenttab install --json printed %q: %v", out, err)
	}
	if res.ExtensionID != extension.ID {
		t.Fatalf("agenttab install reports extension id %q, the embedded extension's id is %q", res.ExtensionID, extension.ID)
	}
	want := filepath.Join(e.UserDataDir, "NativeMessagingHosts", protocol.NativeHostName+".json")
	if len(res.Manifests) != 1 || res.Manifests[0] != want {
		t.Fatalf("agenttab install --user-data-dir wrote manifests %q, want exactly %q", res.Manifests, want)
	}
	return res
}

// launch starts Chromium with extDir loaded and registers its shutdown.
// AGENTTAB_STATE_DIR is set on Chromium because the host inherits
// Chromium's environment (notes/chromium.md).
func (e *Env) launch(t testing.TB, browserPath, extDir string) {
	t.Helper()
	e.presetDownloads(t)
	// Chromium's --load-extension takes a comma-separated list.
	dirs := strings.Join(append([]string{extDir}, e.extraExtensions...), ",")
	o := chromium.LaunchOptions{Headless: e.display == "", UserDataDir: e.UserDataDir, ExtensionDir: dirs}
	env := []string{stateEnv + "=" + e.StateDir}
	if e.display != "" {
		o.Extra, env = headfulFlags, append(env, "DISPLAY="+e.display)
	}
	o.Extra, env = slices.Concat(o.Extra, e.browserFlags), append(env, e.browserEnv...)
	b, err := launchBrowser(browserPath, o, env, &e.output)
	if err != nil {
		t.Fatalf("launching Chromium: %v\noutput:\n%s", err, tail(withoutNoise(e.output.String()), 200))
	}
	e.browser = b
	e.sw.browser = b
	t.Cleanup(func() {
		e.sw.detach()
		b.close()
	})
}

// waitReady polls Core RPC status until the host is ready.
func (e *Env) waitReady(t testing.TB) {
	t.Helper()
	e.waitLifecycle(t, protocol.LifecycleReady)
}

// waitLifecycle polls Core RPC status until the host is in one of want.
func (e *Env) waitLifecycle(t testing.TB, want ...protocol.Lifecycle) {
	t.Helper()
	sock := filepath.Join(e.StateDir, "core.sock")
	deadline := time.Now().Add(readyTimeout)
	last := "core.sock does not exist"
	for time.Now().Before(deadline) {
		if err := e.browser.ctx.Err(); err != nil {
			t.Fatalf("Chromium exited while waiting for the host: %v", err)
		}
		if _, err := os.Stat(sock); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			var st struct {
				Lifecycle protocol.Lifecycle `json:"lifecycle"`
			}
			err := coreCall(ctx, sock, protocol.MethodStatus, nil, &st)
			cancel()
			switch {
			case err != nil:
				last = "status: " + err.Error()
			case slices.Contains(want, st.Lifecycle):
				return
			default:
				last = fmt.Sprintf("lifecycle %q", st.Lifecycle)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the host was not ready after %s: last seen %s", readyTimeout, last)
}

// CoreCall sends one Core RPC request on a new connection (so a new
// client, with no task of its own) and decodes the result into result.
func (e *Env) CoreCall(ctx context.Context, method string, params, result any) error {
	return coreCall(ctx, filepath.Join(e.StateDir, "core.sock"), method, params, result)
}

// addLog registers a subprocess's output for the failure dump, numbered so
// several sessions can be told apart.
func (e *Env) addLog(kind string, buf *logBuffer) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logs = append(e.logs, namedLog{fmt.Sprintf("%s #%d", kind, len(e.logs)+1), buf})
}

// removeAllRetry removes dir, retrying for a while: Chromium's helper
// processes and the host exit a moment after the browser and may still be
// writing.
func removeAllRetry(dir string) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := os.RemoveAll(dir)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}
