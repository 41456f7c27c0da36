package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/protocol"
)

// Read-only answers for `agenttab doctor` (internal/doctor): where Install
// puts things and what it writes there, from the same rules Install uses,
// so the diagnosis cannot drift from the install.

// ManifestFile is the host manifest's file name.
const ManifestFile = manifestFile

// Manifest is a native-messaging host manifest as Chrome reads it.
type Manifest = hostManifest

// ExpectedManifest is the manifest Install writes for hostPath.
func ExpectedManifest(hostPath string) Manifest {
	var m Manifest
	if err := json.Unmarshal(manifestJSON(hostPath), &m); err != nil {
		panic(err) // manifestJSON's own output always decodes
	}
	return m
}

// Place is one browser's per-user home: the user-data directory that holds
// its profiles, and the path of our host manifest Chrome reads there.
type Place struct {
	// Browser is the browser table's name ("chrome", "chromium", "edge",
	// "brave"), or "" for a --user-data-dir.
	Browser     string
	UserDataDir string
	Manifest    string
}

// Places returns where Install would register the host with no --browser:
// every detected browser, or only userDataDir when it is set. No browser
// detected is an empty list, not an error.
func Places(userDataDir string) ([]Place, error) { return defaultSystem().places(userDataDir) }

func (s system) places(userDataDir string) ([]Place, error) {
	if s.goos == "windows" {
		return s.windowsPlaces()
	}
	dirs, err := s.manifestDirs(Options{UserDataDir: userDataDir}, false)
	if err != nil && userDataDir == "" {
		// ErrNoBrowser and the like: nothing is installed anywhere.
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Place
	for _, dir := range dirs {
		p := Place{UserDataDir: filepath.Dir(dir), Manifest: filepath.Join(dir, manifestFile)}
		for _, b := range browsers {
			if pd, err := s.profileDir(b); err == nil && pd == p.UserDataDir && userDataDir == "" {
				p.Browser = b.name
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// windowsPlaces: on Windows Chrome finds the manifest through each
// browser's HKCU key, not a folder (windows.go), so a detected browser's
// place is the file its key names ("" when it has none: doctor then says to
// run install).
func (s system) windowsPlaces() ([]Place, error) {
	var out []Place
	for _, b := range browsers {
		if d, err := s.detected(b); err != nil || !d {
			continue
		}
		udd, err := s.profileDir(b)
		if err != nil {
			return nil, err
		}
		v, _, err := s.registry.Default(hostKey(b))
		if err != nil {
			return nil, fmt.Errorf("reading %s%s: %w", hkcuPrefix, hostKey(b), err)
		}
		out = append(out, Place{Browser: b.name, UserDataDir: udd, Manifest: v})
	}
	return out, nil
}

// systemHostDirs are the machine-wide manifest folders Chrome also reads
// (https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location;
// Edge: https://learn.microsoft.com/microsoft-edge/extensions/developer-guide/native-messaging).
// Install never writes there; a manifest there under our name is someone
// else's, and Chrome may pick it.
var systemHostDirs = map[string][]string{
	"linux": {
		"/etc/opt/chrome/native-messaging-hosts",
		"/etc/chromium/native-messaging-hosts",
		"/etc/opt/edge/native-messaging-hosts",
	},
	"darwin": {
		"/Library/Google/Chrome/NativeMessagingHosts",
		"/Library/Application Support/Chromium/NativeMessagingHosts",
		"/Library/Microsoft/Edge/NativeMessagingHosts",
	},
}

// SystemManifests returns the machine-wide paths where a manifest under our
// host name would be read on this OS.
func SystemManifests() []string {
	var out []string
	for _, d := range systemHostDirs[runtime.GOOS] {
		out = append(out, filepath.Join(d, manifestFile))
	}
	return out
}

// ManifestProblem says what is wrong with m for the extension's origin and
// a host at an absolute path, or "" when it is what Install writes (the
// path itself is the caller's to check: it may differ legitimately).
func ManifestProblem(m Manifest) string {
	want := ExpectedManifest(m.Path)
	switch {
	case m.Name != want.Name:
		return fmt.Sprintf("its name is %q, not %q", m.Name, want.Name)
	case m.Type != want.Type:
		return fmt.Sprintf("its type is %q, not %q", m.Type, want.Type)
	case len(m.AllowedOrigins) != 1 || m.AllowedOrigins[0] != extension.Origin:
		return fmt.Sprintf("its allowed_origins are %q, not exactly [%q]", m.AllowedOrigins, extension.Origin)
	case !filepath.IsAbs(m.Path):
		return fmt.Sprintf("its path %q is not absolute (Chrome resolves it against the manifest's folder)", m.Path)
	}
	return ""
}

// MachineRegistry is HKLM as doctor reads it: read-only, each key's
// default value with Registry.Default's contract, keys relative to HKLM.
// Install never writes there (it registers per user). The real one is
// registry_windows.go; tests use a map.
type MachineRegistry interface {
	Default(key string) (value string, found bool, err error)
}

// hklmPrefix is how a machine-wide key is shown to the user.
const hklmPrefix = `HKLM\`

// machineHostKeys are the HKLM keys Chrome reads for b's hosts when b's
// HKCU key is absent or user-level hosts are turned off by policy
// (Chromium's launch_context_win.cc FindManifest: HKCU first, then HKLM),
// in Chrome's order: the 32-bit registry view, then the 64-bit one
// (https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location).
// From a 64-bit process the 32-bit view of HKLM\Software is its
// WOW6432Node subkey, which `reg delete` also takes as a plain path.
func machineHostKeys(b browser) []string {
	rest, _ := strings.CutPrefix(b.regKey, `Software\`)
	return []string{`Software\WOW6432Node\` + rest + `\` + protocol.NativeHostName, hostKey(b)}
}

// MachineRegistrations returns the machine-wide registrations under our
// host name that exist, for every known browser (none off Windows).
func MachineRegistrations() ([]Registration, error) {
	return machineRegistrations(runtime.GOOS, machineRegistry())
}

func machineRegistrations(goos string, hklm MachineRegistry) ([]Registration, error) {
	if goos != "windows" {
		return nil, nil
	}
	var out []Registration
	for _, b := range browsers {
		for _, key := range machineHostKeys(b) {
			v, found, err := hklm.Default(key)
			if err != nil {
				return nil, fmt.Errorf("reading %s%s: %w", hklmPrefix, key, err)
			}
			if found {
				out = append(out, Registration{Browser: b.name, Key: hklmPrefix + key, Manifest: v})
			}
		}
	}
	return out, nil
}

// IsOurWindowsManifest says whether path is the manifest Install writes on
// Windows for the state directory state (compared as Windows compares
// paths).
func IsOurWindowsManifest(state, path string) bool {
	return samePath(path, windowsManifest(state))
}
