package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttab/agenttab/extension"
)

// Options say where to install.
type Options struct {
	// Browsers are names from the browser table ("chrome", "chromium",
	// "edge", "brave") or "all". Empty means "all": every detected browser.
	// A browser named here gets a manifest even when it is not detected.
	Browsers []string
	// UserDataDir, when set, is the only place a manifest goes:
	// UserDataDir/NativeMessagingHosts, for a browser started with
	// --user-data-dir (which reads no per-user directory).
	UserDataDir string
	// StateDir is AgentTab's state directory; the extension goes to
	// StateDir/extension.
	StateDir string
	// HostPath is the absolute path of the agenttab binary Chrome starts.
	HostPath string
}

// Result says what Install wrote. The JSON names are what
// `agenttab install --json` prints and what the e2e harness parses.
type Result struct {
	ExtensionDir string   `json:"extension_dir"`
	ExtensionID  string   `json:"extension_id"`
	Manifests    []string `json:"manifests"`
	// RegistryKeys are the HKCU keys pointing at the manifest (Windows).
	RegistryKeys []string `json:"registry_keys,omitempty"`
}

// extensionDirName is the folder under the state directory users pick in
// chrome://extensions → Load unpacked.
const extensionDirName = "extension"

// Install writes the extension and the host manifests; see Options.
func Install(opts Options) (Result, error) { return defaultSystem().install(opts) }

func (s system) install(opts Options) (Result, error) {
	// Chrome resolves a relative path against the manifest's directory, not
	// against where agenttab ran, so a relative path would point at nothing.
	if !filepath.IsAbs(opts.HostPath) {
		return Result{}, fmt.Errorf("host path %q is not absolute: Chrome needs the absolute path of the agenttab binary", opts.HostPath)
	}
	state, err := stateDir(opts.StateDir)
	if err != nil {
		return Result{}, err
	}
	// Decide every destination before writing anything, so a bad browser
	// name or an empty machine leaves no half install behind.
	var dirs []string
	var keys []browser
	if s.goos == "windows" {
		if opts.UserDataDir != "" {
			return Result{}, errUserDataDirOnWindows
		}
		keys, err = s.selected(opts, false)
	} else {
		dirs, err = s.manifestDirs(opts, false)
	}
	if err != nil {
		return Result{}, err
	}

	if err := os.MkdirAll(state, dirMode); err != nil {
		return Result{}, fmt.Errorf("creating the state directory: %w", err)
	}
	extDir := filepath.Join(state, extensionDirName)
	if err := replaceTree(s.dist, extDir); err != nil {
		return Result{}, fmt.Errorf("writing the extension to %s: %w", extDir, err)
	}

	res := Result{ExtensionDir: extDir, ExtensionID: extension.ID}
	if s.goos == "windows" {
		return res, s.registerWindows(&res, state, opts.HostPath, keys)
	}
	manifest := manifestJSON(opts.HostPath)
	for _, dir := range dirs {
		if err := os.MkdirAll(dir, dirMode); err != nil {
			return res, fmt.Errorf("creating %s: %w", dir, err)
		}
		path := filepath.Join(dir, manifestFile)
		if err := writeFileAtomic(path, manifest); err != nil {
			return res, fmt.Errorf("writing %s: %w", path, err)
		}
		res.Manifests = append(res.Manifests, path)
	}
	return res, nil
}

func stateDir(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("no state directory given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return abs, nil
}
