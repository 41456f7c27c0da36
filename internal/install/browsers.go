package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttab/agenttab/internal/chromium"
)

// browser is where one browser keeps its per-user profile, relative to the
// home directory. Chrome reads per-user host manifests from
// PROFILE/NativeMessagingHosts
// (https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location).
// name matches chromium.Family.Name so the binary names come from one list.
type browser struct {
	name   string
	linux  string
	darwin string
}

var browsers = []browser{
	{name: "chrome", linux: ".config/google-chrome", darwin: "Library/Application Support/Google/Chrome"},
	{name: "chromium", linux: ".config/chromium", darwin: "Library/Application Support/Chromium"},
	{name: "edge", linux: ".config/microsoft-edge", darwin: "Library/Application Support/Microsoft Edge"},
	{name: "brave", linux: ".config/BraveSoftware/Brave-Browser", darwin: "Library/Application Support/BraveSoftware/Brave-Browser"},
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
