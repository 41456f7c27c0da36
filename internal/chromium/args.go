package chromium

import (
	"os"
	"runtime"
)

// LaunchOptions describe one browser launch.
type LaunchOptions struct {
	// Headless runs the browser with --headless=new, which keeps extensions,
	// service workers and native messaging working (notes/chromium.md).
	Headless bool
	// UserDataDir is the profile directory; empty uses the browser default.
	UserDataDir string
	// ExtensionDir is the unpacked extension to load; empty loads none.
	ExtensionDir string
	// Extra flags are appended last, so they can override earlier ones.
	Extra []string
}

// Args returns the browser command line flags for o (no executable, no
// URL).
func Args(o LaunchOptions) []string { return args(o, os.Geteuid() == 0) }

func args(o LaunchOptions, root bool) []string {
	var a []string
	if o.Headless {
		a = append(a, "--headless=new")
	}
	if root {
		// Chromium refuses to start as root with its sandbox on ("Running as
		// root without --no-sandbox is not supported"), which is how CI
		// containers run. A normal user keeps the sandbox.
		a = append(a, "--no-sandbox")
	}
	if o.Headless {
		// Headless machines usually have no GPU; software rendering avoids
		// GPU-process crash loops in the log.
		a = append(a, "--disable-gpu")
	}
	a = append(a,
		"--no-first-run",
		"--no-default-browser-check",
		// Without these Chromium keeps reaching for hosts a sandboxed
		// machine cannot reach (notes/chromium.md).
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-features=Translate,MediaRouter",
	)
	if o.UserDataDir != "" {
		a = append(a, "--user-data-dir="+o.UserDataDir)
	}
	if o.ExtensionDir != "" {
		a = append(a, "--load-extension="+o.ExtensionDir)
	}
	// The default headless viewport is 780x437; pages laid out for a
	// laptop-sized window behave more like they do for users.
	a = append(a, "--window-size=1280,800")
	return append(a, o.Extra...)
}

// HasDisplay reports whether a headful browser can open a window here.
func HasDisplay() bool { return hasDisplay(runtime.GOOS, os.Getenv) }

func hasDisplay(goos string, getenv func(string) string) bool {
	switch goos {
	case "darwin", "windows":
		// Both always have a window server for a logged-in user.
		return true
	default:
		return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
	}
}
