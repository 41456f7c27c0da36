package harness

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Chrome's debugging banner, clicked as a user clicks it. When an extension
// attaches chrome.debugger, headful Chromium shows the infobar "“AgentTab”
// started debugging this browser" with a Cancel button; Cancel detaches
// every session of that extension with chrome.debugger.onDetach reason
// "canceled_by_user" (issue 12: that is the user's Pause). No API clicks
// it (chrome.debugger.detach reports target_closed), so the test finds the
// button in the browser window's own accessibility tree (AT-SPI, as a
// screen reader would) and clicks its centre with the X pointer (xdotool,
// as a mouse would).
//
// Observed in Chromium 156 (Debian) on Xvfb + openbox:
//   - the banner is drawn only on the debugged tab while it is the active
//     tab of its window; other tabs show none (or the --no-sandbox one);
//   - the window's UI tree reaches AT-SPI only with
//     --force-renderer-accessibility and a session D-Bus on which the
//     org.a11y.Bus service can be activated (at-spi2-core); neither
//     ACCESSIBILITY_ENABLED=1 nor org.a11y.Status.ScreenReaderEnabled was
//     enough; without it the window is a bare frame with no children;
//   - reading the tree takes 50-300 ms; onDetach fires within ~10 ms of
//     the click.
// Keyboard also works (F6 cycles omnibox → tab strip → infobar, then
// Enter), but how many F6 presses reach the infobar depends on where the
// focus was, so the tree is what this helper trusts.

// bannerTimeout bounds waiting for the banner to appear after an attach
// and to go after the click; both take well under a second when healthy.
const bannerTimeout = 10 * time.Second

// atspiPython is Debian's interpreter, where python3-pyatspi lives (a
// python3 earlier on PATH, such as a pyenv shim, lacks the module).
const atspiPython = "/usr/bin/python3"

// bannerScript prints, as JSON, every showing debugging banner of the
// extension named argv[1]: its text and its Cancel button's screen box.
const bannerScript = `
import json, sys, pyatspi
name = sys.argv[1]
found = []
def walk(node, depth):
    if depth > 60:
        return
    try:
        role, label = node.getRoleName(), node.name or ""
    except Exception:
        return
    if role == "document web":  # a page, not the browser's UI
        return
    if "started debugging this browser" in label and name in label:
        for sib in node.parent:
            if sib and sib.getRoleName() == "push button" and sib.getState().contains(pyatspi.STATE_SHOWING):
                b = sib.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                found.append({"text": label, "button": sib.name, "x": b.x, "y": b.y, "w": b.width, "h": b.height})
        return
    for child in node:
        if child:
            walk(child, depth + 1)
for app in pyatspi.Registry.getDesktop(0):
    if app:
        walk(app, 0)
print(json.dumps(found))
`

// WithBrowserUI lets a headful Env's test see and click Chromium's own
// window UI (the debugging banner): it starts a private session D-Bus for
// this Env's Chromium (stopped when t ends, after the browser) and turns
// Chromium's accessibility on. Use it with StartHeadful only; it makes
// every page build an accessibility tree, so other tests go without it.
func WithBrowserUI(t testing.TB) Option {
	t.Helper()
	for _, bin := range []string{"dbus-daemon", "xdotool", atspiPython} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("clicking the debugging banner needs %s: run scripts/deps.sh (Debian: apt-get install dbus-daemon at-spi2-core python3-pyatspi xdotool): %v", bin, err)
		}
	}
	if err := exec.Command(atspiPython, "-c", "import pyatspi").Run(); err != nil {
		t.Fatalf("clicking the debugging banner needs pyatspi in %s: run scripts/deps.sh (Debian: apt-get install python3-pyatspi at-spi2-core): %v", atspiPython, err)
	}
	bus := startSessionBus(t)
	return func(c *config) {
		c.flags = append(c.flags, "--force-renderer-accessibility")
		c.env = append(c.env, "DBUS_SESSION_BUS_ADDRESS="+bus)
	}
}

// startSessionBus starts dbus-daemon --session and returns its address.
func startSessionBus(t testing.TB) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=3")
	cmd.ExtraFiles = []*os.File{w}
	var out logBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting dbus-daemon: %v", err)
	}
	w.Close()
	t.Cleanup(func() { stop(cmd) })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		got <- strings.TrimSpace(line)
	}()
	select {
	case addr := <-got:
		if addr == "" {
			t.Fatalf("dbus-daemon printed no address:\n%s", out.String())
		}
		return addr
	case <-time.After(displayTimeout):
		t.Fatalf("dbus-daemon did not start within %s:\n%s", displayTimeout, out.String())
		return ""
	}
}

// Banner is one debugging banner on screen, read from Chromium's UI tree.
type Banner struct {
	Text   string `json:"text"`   // "\"AgentTab\" started debugging this browser"
	Button string `json:"button"` // "Cancel"
	// The button's box in screen pixels.
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// DebuggingBanners reads the showing debugging banners of AgentTab from
// the browser window's accessibility tree (an Env made WithBrowserUI).
func (e *Env) DebuggingBanners(t testing.TB) ([]Banner, error) {
	t.Helper()
	name, err := e.extensionName()
	if err != nil {
		return nil, err
	}
	bus := e.busAddress()
	if e.display == "" || bus == "" {
		return nil, errors.New("reading Chromium's UI needs an Env from StartHeadful(t, WithBrowserUI(t))")
	}
	cmd := exec.Command(atspiPython, "-c", bannerScript, name)
	cmd.Env = append(os.Environ(), "DISPLAY="+e.display, "DBUS_SESSION_BUS_ADDRESS="+bus)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			stderr = ee.Stderr
		}
		return nil, fmt.Errorf("reading Chromium's UI through AT-SPI: %v\n%s", err, stderr)
	}
	var banners []Banner
	if err := json.Unmarshal(out, &banners); err != nil {
		return nil, fmt.Errorf("the AT-SPI reader printed %q: %v", out, err)
	}
	return banners, nil
}

// BannerTimings says how long each step of CancelDebuggingBanner took.
type BannerTimings struct {
	Found   time.Duration // until the banner was read on screen
	Clicked time.Duration // the pointer's move and click
	Gone    time.Duration // from the click until the banner was no longer shown
}

// CancelDebuggingBanner clicks Cancel on AgentTab's debugging banner with
// the X pointer, as the user would, and returns when the banner is gone.
// The debugged tab must be the active tab of a window on screen (Chromium
// 156 shows the banner only there); the banner is waited for, since it
// appears a moment after the attach.
func (e *Env) CancelDebuggingBanner(t testing.TB) (BannerTimings, error) {
	t.Helper()
	var tm BannerTimings
	start := time.Now()
	var b Banner
	for {
		banners, err := e.DebuggingBanners(t)
		if err != nil {
			return tm, err
		}
		if len(banners) > 0 {
			b = banners[0]
			break
		}
		if time.Since(start) > bannerTimeout {
			return tm, fmt.Errorf("no debugging banner of the extension on screen after %s (Chromium 156 shows it only on the debugged tab while that tab is active)", bannerTimeout)
		}
		time.Sleep(pollInterval)
	}
	tm.Found = time.Since(start)

	clickAt := time.Now()
	x, y := strconv.Itoa(b.X+b.W/2), strconv.Itoa(b.Y+b.H/2)
	cmd := exec.Command("xdotool", "mousemove", "--sync", x, y, "click", "1")
	cmd.Env = append(os.Environ(), "DISPLAY="+e.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		return tm, fmt.Errorf("xdotool click at %s,%s: %v\n%s", x, y, err, out)
	}
	tm.Clicked = time.Since(clickAt)

	for {
		banners, err := e.DebuggingBanners(t)
		if err != nil {
			return tm, err
		}
		if len(banners) == 0 {
			tm.Gone = time.Since(clickAt)
			return tm, nil
		}
		if time.Since(clickAt) > bannerTimeout {
			return tm, fmt.Errorf("the debugging banner %q was still shown %s after clicking %s at %s,%s", b.Text, bannerTimeout, b.Button, x, y)
		}
		time.Sleep(pollInterval)
	}
}

// extensionName is the name Chromium puts in the banner: the installed
// manifest's.
func (e *Env) extensionName() (string, error) {
	raw, err := os.ReadFile(filepath.Join(e.Installed.ExtensionDir, "manifest.json"))
	if err != nil {
		return "", err
	}
	var m struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.Name == "" {
		return "", fmt.Errorf("the installed manifest names no extension: %v", err)
	}
	return m.Name, nil
}

// busAddress is the session bus WithBrowserUI gave Chromium, "" without it.
func (e *Env) busAddress() string {
	for _, kv := range e.browserEnv {
		if addr, ok := strings.CutPrefix(kv, "DBUS_SESSION_BUS_ADDRESS="); ok {
			return addr
		}
	}
	return ""
}
