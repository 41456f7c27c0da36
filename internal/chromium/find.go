package chromium

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// EnvBrowser names an explicit browser executable. It wins over every
// lookup so that a user (or CI) with an unusual install can point at it.
const EnvBrowser = "AGENTTAB_BROWSER"

// ErrNotFound is wrapped by Find's error when no browser exists; the error
// text carries the command that installs one.
var ErrNotFound = errors.New("no Chromium-family browser found")

// Finder looks for browsers through injectable functions, so tests can
// describe a machine without touching the real one. The zero value is not
// usable; take System() and replace what a test needs.
type Finder struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Stat     func(string) (fs.FileInfo, error)
	GOOS     string
	// Root reports whether the process runs as root; it changes only the
	// install hint (no sudo for root).
	Root bool
}

// System is the Finder for this process and machine.
func System() Finder {
	return Finder{
		Getenv:   os.Getenv,
		LookPath: exec.LookPath,
		Stat:     os.Stat,
		GOOS:     runtime.GOOS,
		Root:     os.Geteuid() == 0,
	}
}

// Find returns the executable of the preferred installed browser on this
// machine; see Finder.Find.
func Find() (string, error) { return System().Find() }

// Find honours AGENTTAB_BROWSER, then returns the first family member found
// in preference order (Chromium first; see families). An AGENTTAB_BROWSER
// that does not resolve is an error rather than a reason to fall back: the
// user asked for that browser.
func (f Finder) Find() (string, error) {
	if p := f.Getenv(EnvBrowser); p != "" {
		path, err := f.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%s=%q is not an executable browser: %v", EnvBrowser, p, err)
		}
		return path, nil
	}
	for _, fam := range families {
		if path, ok := f.FindFamily(fam); ok {
			return path, nil
		}
	}
	return "", fmt.Errorf("%w (looked at $%s, %s); %s", ErrNotFound, EnvBrowser, f.lookedAt(), f.installHint())
}

// FindFamily returns the executable of one browser family: a name on PATH,
// else on macOS its app bundle.
func (f Finder) FindFamily(fam Family) (string, bool) {
	for _, name := range fam.Binaries {
		if path, err := f.LookPath(name); err == nil {
			return path, true
		}
	}
	if f.GOOS == "darwin" && fam.MacApp != "" {
		if info, err := f.Stat(fam.MacApp); err == nil && !info.IsDir() {
			return fam.MacApp, true
		}
	}
	return "", false
}

func (f Finder) lookedAt() string {
	var names []string
	for _, fam := range families {
		names = append(names, fam.Binaries...)
	}
	s := strings.Join(names, ", ") + " on PATH"
	if f.GOOS == "darwin" {
		var apps []string
		for _, fam := range families {
			apps = append(apps, fam.MacApp)
		}
		s += " and " + strings.Join(apps, ", ")
	}
	return s
}

// installHint is the exact command that gets a browser which honours
// --load-extension onto this kind of machine.
func (f Finder) installHint() string {
	apt := "sudo apt-get install -y chromium"
	if f.Root {
		apt = "apt-get install -y chromium"
	}
	switch f.GOOS {
	case "linux":
		return "install Chromium: on Debian/Ubuntu run `" + apt + "`, or set " + EnvBrowser + " to a browser executable"
	case "darwin":
		return "install Chromium: run `brew install --cask chromium`, or set " + EnvBrowser + " to a browser executable"
	default:
		return "install Chromium (Debian/Ubuntu: `" + apt + "`; macOS: `brew install --cask chromium`), or set " + EnvBrowser + " to a browser executable"
	}
}
