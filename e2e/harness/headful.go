package harness

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The headful tier: Chromium with real windows on a private Xvfb display
// managed by openbox, so that window focus, raising and tab visibility are
// what a user's desktop does, not headless's stand-ins (issue 10: the
// popup that became the user's active tab, and the task window that took
// the OS focus, showed only there). scripts/deps.sh installs xvfb, openbox
// and x11-utils on Debian.

// displayTimeout bounds Xvfb's and openbox's start; both take well under a
// second on the measured machines.
const displayTimeout = 10 * time.Second

// headfulFlags are added to a headful launch: no GPU exists on Xvfb
// (software rendering without crash loops in the log), X11 even when the
// environment names a Wayland display, and no desktop keyring to prompt for.
var headfulFlags = []string{"--disable-gpu", "--ozone-platform=x11", "--password-store=basic"}

// StartHeadful is Start with a real window system: its own Xvfb display
// (a free display number Xvfb picks itself) with openbox on it, and
// Chromium without --headless there. Everything stops when t ends, the
// display last.
func StartHeadful(t testing.TB, opts ...Option) *Env {
	t.Helper()
	display := startDisplay(t)
	return Start(t, append(opts, func(c *config) { c.display = display })...)
}

// startDisplay starts Xvfb and openbox and returns the display (":N").
func startDisplay(t testing.TB) string {
	t.Helper()
	for _, bin := range []string{"Xvfb", "openbox", "xprop"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("the headful tests need %s: run scripts/deps.sh (Debian: apt-get install xvfb openbox x11-utils): %v", bin, err)
		}
	}
	// -displayfd: Xvfb chooses a free display number and writes it to the
	// descriptor once it accepts connections, so no number is guessed and
	// no readiness is polled.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	xvfb := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	xvfb.ExtraFiles = []*os.File{w}
	var xlog logBuffer
	xvfb.Stdout, xvfb.Stderr = &xlog, &xlog
	if err := xvfb.Start(); err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { stop(xvfb) })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		r.Close()
		got <- strings.TrimSpace(line)
	}()
	var display string
	select {
	case n := <-got:
		if n == "" {
			t.Fatalf("Xvfb gave no display number:\n%s", xlog.String())
		}
		display = ":" + n
	case <-time.After(displayTimeout):
		t.Fatalf("Xvfb did not start within %s:\n%s", displayTimeout, xlog.String())
	}

	wm := exec.Command("openbox", "--sm-disable")
	wm.Env = append(os.Environ(), "DISPLAY="+display)
	var wmlog logBuffer
	wm.Stdout, wm.Stderr = &wmlog, &wmlog
	if err := wm.Start(); err != nil {
		t.Fatalf("starting openbox: %v", err)
	}
	t.Cleanup(func() { stop(wm) })
	// An EWMH window manager announces itself on the root window; until it
	// does, Chromium's first window would not be managed (nor focused).
	deadline := time.Now().Add(displayTimeout)
	for !strings.Contains(xprop(display, "-root", "_NET_SUPPORTING_WM_CHECK"), "window id") {
		if time.Now().After(deadline) {
			t.Fatalf("openbox did not manage display %s within %s:\n%s", display, displayTimeout, wmlog.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return display
}

// stop ends a process this harness started and waits for it.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// xprop runs xprop on display and answers its output ("" on failure).
func xprop(display string, args ...string) string {
	cmd := exec.Command("xprop", append([]string{"-display", display}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// XFocus is what the X server shows as the user's focus: the window the
// window manager made active and its title (Chromium titles a window after
// its active tab).
type XFocus struct {
	Window string
	Title  string
}

// XActiveWindow reads _NET_ACTIVE_WINDOW from the root window of a headful
// Env's display, and that window's title.
func (e *Env) XActiveWindow(t testing.TB) XFocus {
	t.Helper()
	if e.display == "" {
		t.Fatal("XActiveWindow needs an Env from StartHeadful")
	}
	// "_NET_ACTIVE_WINDOW(WINDOW): window id # 0x1400003"
	out := xprop(e.display, "-root", "_NET_ACTIVE_WINDOW")
	_, id, ok := strings.Cut(out, "# ")
	if !ok {
		t.Fatalf("xprop -root _NET_ACTIVE_WINDOW printed %q", out)
	}
	f := XFocus{Window: strings.TrimSpace(strings.Split(id, ",")[0])}
	// `_NET_WM_NAME(UTF8_STRING) = "Title - Chromium"`
	if _, title, ok := strings.Cut(xprop(e.display, "-id", f.Window, "_NET_WM_NAME"), " = "); ok {
		f.Title = strings.Trim(strings.TrimSpace(title), `"`)
	}
	return f
}

// String is for failure messages.
func (f XFocus) String() string { return fmt.Sprintf("X window %s %q", f.Window, f.Title) }

// UserView is what the user sees, read from Chrome: the focused window with
// its bounds, and the active tab of every window.
type UserView struct {
	// Focused is the window with the OS focus; ID 0 when no Chrome window has it.
	Focused Window
	// Active maps each window's id to its active tab's id.
	Active map[int]int
	// X is the X server's view (headful only).
	X XFocus
}

// ReadUserView reads the UserView of a headful Env from Chrome and X.
func (e *Env) ReadUserView(t testing.TB) UserView {
	t.Helper()
	var windows []struct {
		Window
		Tabs []Tab `json:"tabs"`
	}
	e.Eval(t, `chrome.windows.getAll({populate: true})`, &windows)
	v := UserView{Active: map[int]int{}, X: e.XActiveWindow(t)}
	for _, w := range windows {
		if w.Focused {
			v.Focused = w.Window
		}
		for _, tab := range w.Tabs {
			if tab.Active {
				v.Active[w.ID] = tab.ID
			}
		}
	}
	return v
}
