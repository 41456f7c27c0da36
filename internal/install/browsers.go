package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttab/agenttab/internal/chromium"
)

// browser is where one browser keeps its per-user profile and, on Windows,
// its per-user host registrations. On Linux and macOS Chrome reads per-user
// host manifests from PROFILE/NativeMessagingHosts, PROFILE relative to the
// home directory (https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location:
// "~/Library/Application Support/Google/Chrome/NativeMessagingHosts/" on
// macOS, "~/.config/google-chrome/NativeMessagingHosts/" on Linux). On
// Windows it reads no directory: the default value of
// HKCU\REGKEY\<host name> is the manifest's path (the same page for Chrome;
// https://learn.microsoft.com/microsoft-edge/extensions/developer-guide/native-messaging
// for Edge). name matches chromium.Family.Name so the binary names come from
// one list.
type browser struct {
	name   string
	linux  string
	darwin string
	// windows is the browser's User Data directory relative to
	// %LOCALAPPDATA%: detection only, since Windows registrations live in
	// the registry.
	windows string
	// regKey is the HKCU key under which the browser looks up hosts.
	regKey string
}

var browsers = []browser{
	{name: "chrome", linux: ".config/google-chrome", darwin: "Library/Application Support/Google/Chrome",
		windows: "Google/Chrome/User Data", regKey: `Software\Google\Chrome\NativeMessagingHosts`},
	{name: "chromium", linux: ".config/chromium", darwin: "Library/Application Support/Chromium",
		windows: "Chromium/User Data", regKey: `Software\Chromium\NativeMessagingHosts`},
	{name: "edge", linux: ".config/microsoft-edge", darwin: "Library/Application Support/Microsoft Edge",
		windows: "Microsoft/Edge/User Data", regKey: `Software\Microsoft\Edge\NativeMessagingHosts`},
	{name: "brave", linux: ".config/BraveSoftware/Brave-Browser", darwin: "Library/Application Support/BraveSoftware/Brave-Browser",
		windows: "BraveSoftware/Brave-Browser/User Data", regKey: `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts`},
}

// AllBrowsers is the Options.Browsers value that selects every detected
// browser; it is also what an empty list means.
const AllBrowsers = "all"

// hostsDirName is the folder under a profile (or a --user-data-dir) where
// Chrome looks for host manifests.
const hostsDirName = "NativeMessagingHosts"

func browserByName(name string) (browser, error) {
	for _, b := range browsers {
		if b.name == name {
			return b, nil
		}
	}
	var known []string
	for _, b := range browsers {
		known = append(known, b.name)
	}
	return browser{}, fmt.Errorf("unknown browser %q (known: %s, or %s)", name, strings.Join(known, ", "), AllBrowsers)
}

// profileDir is b's per-user profile directory on s.
func (s system) profileDir(b browser) (string, error) {
	if s.goos == "windows" {
		local := s.getenv("LOCALAPPDATA")
		if local == "" {
			return "", errors.New("finding the browsers' profiles: LOCALAPPDATA is not set")
		}
		return filepath.Join(local, filepath.FromSlash(b.windows)), nil
	}
	home, err := s.home()
	if err != nil {
		return "", fmt.Errorf("finding the home directory: %w", err)
	}
	switch s.goos {
	case "darwin":
		return filepath.Join(home, filepath.FromSlash(b.darwin)), nil
	default:
		return filepath.Join(home, filepath.FromSlash(b.linux)), nil
	}
}

// detected reports whether b looks installed: its profile directory exists
// (it has run at least once) or its binary is on PATH (installed, never
// run; Chrome creates NativeMessagingHosts' parent on first start anyway).
// On Windows that is the User Data directory under %LOCALAPPDATA%; a
// browser never started there is not detected and needs --browser NAME.
func (s system) detected(b browser) (bool, error) {
	dir, err := s.profileDir(b)
	if err != nil {
		return false, err
	}
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		return true, nil
	}
	fam, ok := chromium.FamilyByName(b.name)
	if !ok {
		return false, fmt.Errorf("browser %q has no binary names in package chromium", b.name)
	}
	_, found := s.finder.FindFamily(fam)
	return found, nil
}

// lookedFor describes what detection checked, for the error a user sees
// when nothing was found.
func (s system) lookedFor() string {
	var parts []string
	for _, b := range browsers {
		dir, err := s.profileDir(b)
		if err != nil {
			dir = "(no home directory)"
		}
		fam, _ := chromium.FamilyByName(b.name)
		parts = append(parts, fmt.Sprintf("%s (%s, or %s on PATH)", b.name, dir, strings.Join(fam.Binaries, " or ")))
	}
	return strings.Join(parts, "; ")
}
