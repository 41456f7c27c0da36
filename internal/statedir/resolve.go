package statedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// EnvStateDir overrides the platform default. Tests always set it so that
// they never touch the user's real state (DESIGN.md "State directory").
const EnvStateDir = "AGENTTAB_STATE_DIR"

// Resolve returns the state directory for this process: AGENTTAB_STATE_DIR
// when set, else the platform default. It does not create the directory;
// call Ensure for that.
func Resolve() (string, error) {
	return resolve(runtime.GOOS, os.Getenv, os.UserHomeDir)
}

// resolve is Resolve with the platform, the environment and the home
// directory passed in, so every platform's rule is testable on any platform.
func resolve(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if dir := getenv(EnvStateDir); dir != "" {
		// Chrome starts the host with a working directory of its choosing,
		// so a relative path would name a different directory for the host
		// than for the CLI that the user runs from a shell.
		if !isAbs(goos, dir) {
			return "", fmt.Errorf("%s=%q is not an absolute path; set it to an absolute directory", EnvStateDir, dir)
		}
		return filepath.Clean(dir), nil
	}
	switch goos {
	case "windows":
		local := getenv("LOCALAPPDATA")
		if local == "" {
			return "", errors.New("cannot find the state directory: LOCALAPPDATA is not set; set AGENTTAB_STATE_DIR")
		}
		return filepath.Join(local, "AgentTab"), nil
	case "darwin", "ios":
		h, err := homeDir(home)
		if err != nil {
			return "", err
		}
		return filepath.Join(h, "Library", "Application Support", "AgentTab"), nil
	default:
		// The XDG Base Directory spec says a relative XDG_STATE_HOME is
		// invalid and must be ignored.
		if xdg := getenv("XDG_STATE_HOME"); xdg != "" && filepath.IsAbs(xdg) {
			return filepath.Join(xdg, "agenttab"), nil
		}
		h, err := homeDir(home)
		if err != nil {
			return "", err
		}
		return filepath.Join(h, ".local", "state", "agenttab"), nil
	}
}

func homeDir(home func() (string, error)) (string, error) {
	h, err := home()
	if err != nil {
		return "", fmt.Errorf("cannot find the state directory: %w; set AGENTTAB_STATE_DIR", err)
	}
	if h == "" {
		return "", errors.New("cannot find the state directory: the home directory is unknown; set AGENTTAB_STATE_DIR")
	}
	return h, nil
}

// isAbs reports whether p is absolute on goos. filepath.IsAbs answers only
// for the running platform, and resolve is tested for all of them.
func isAbs(goos, p string) bool {
	if goos != "windows" {
		return len(p) > 0 && p[0] == '/'
	}
	// A drive-letter path (C:\ or C:/) or a UNC path (\\server\share).
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		return true
	}
	return len(p) >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/')
}
