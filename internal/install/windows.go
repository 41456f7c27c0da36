package install

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agenttab/agenttab/protocol"
)

// Registry is the per-user registry (HKCU) as Install uses it on Windows:
// one string, the key's default value, per browser. Keys are relative to
// HKCU. The real one is registry_windows.go; tests use a map.
type Registry interface {
	// SetDefault creates key if needed and sets its default value.
	SetDefault(key, value string) error
	// Default returns key's default value; found is false when the key or
	// its default value does not exist.
	Default(key string) (value string, found bool, err error)
	// DeleteKey removes key (which has no subkeys); a missing key is not an
	// error.
	DeleteKey(key string) error
}

// hkcuPrefix is how a key is shown to the user and in Result.
const hkcuPrefix = `HKCU\`

// hostKey is the key whose default value names our manifest for b.
func hostKey(b browser) string { return b.regKey + `\` + protocol.NativeHostName }

// windowsManifest is where the one manifest every browser's key points at
// lives: in the state directory, which is the user's own (%LOCALAPPDATA%\AgentTab
// by default, internal/statedir).
func windowsManifest(state string) string { return filepath.Join(state, manifestFile) }

// errUserDataDirOnWindows: on Windows Chrome finds hosts in the registry
// whatever --user-data-dir says, so a manifest in a profile would register
// nothing.
var errUserDataDirOnWindows = errors.New("--user-data-dir does not apply on Windows: Chrome finds native hosts through HKCU registry keys whatever its profile, so run without --user-data-dir (and with --browser NAME if that browser was never started)")

// registerWindows writes the manifest into the state directory and points
// each browser's key at it.
func (s system) registerWindows(res *Result, state, hostPath string, bs []browser) error {
	path := windowsManifest(state)
	if err := writeFileAtomic(path, manifestJSON(hostPath)); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	res.Manifests = append(res.Manifests, path)
	for _, b := range bs {
		key := hostKey(b)
		if err := s.registry.SetDefault(key, path); err != nil {
			return fmt.Errorf("registering the host for %s at %s%s: %w", b.name, hkcuPrefix, key, err)
		}
		res.RegistryKeys = append(res.RegistryKeys, hkcuPrefix+key)
	}
	return nil
}

// unregisterWindows deletes the keys of bs that point at our manifest
// (another program's value under our name stays), then the manifest itself
// once no browser's key points at it any more.
func (s system) unregisterWindows(state string, bs []browser) ([]string, error) {
	path := windowsManifest(state)
	var removed []string
	var errs []error
	for _, b := range bs {
		key := hostKey(b)
		v, found, err := s.registry.Default(key)
		if err != nil {
			errs = append(errs, fmt.Errorf("reading %s%s: %w", hkcuPrefix, key, err))
			continue
		}
		if !found || !samePath(v, path) {
			continue
		}
		if err := s.registry.DeleteKey(key); err != nil {
			errs = append(errs, fmt.Errorf("deleting %s%s: %w", hkcuPrefix, key, err))
			continue
		}
		removed = append(removed, hkcuPrefix+key)
	}
	for _, b := range browsers {
		if v, found, err := s.registry.Default(hostKey(b)); err != nil || (found && samePath(v, path)) {
			// Still in use (or unknown): the manifest stays.
			return removed, errors.Join(errs...)
		}
	}
	if r, err := removeOurManifest(path); err != nil {
		errs = append(errs, err)
	} else if r {
		removed = append(removed, path)
	}
	return removed, errors.Join(errs...)
}

// samePath compares two Windows paths as Windows does: without regard to
// case or redundant separators.
func samePath(a, b string) bool {
	return strings.EqualFold(filepath.Clean(a), filepath.Clean(b))
}

// Registration is one browser's HKCU key for our host on Windows and the
// manifest path its default value names ("" when the key is absent), for
// `agenttab doctor`.
type Registration struct {
	Browser  string
	Key      string
	Manifest string
}

// Registrations reads every known browser's key (Windows only: elsewhere
// the registry does not exist and this fails).
func Registrations() ([]Registration, error) { return defaultSystem().registrations() }

func (s system) registrations() ([]Registration, error) {
	var out []Registration
	for _, b := range browsers {
		v, _, err := s.registry.Default(hostKey(b))
		if err != nil {
			return nil, fmt.Errorf("reading %s%s: %w", hkcuPrefix, hostKey(b), err)
		}
		out = append(out, Registration{Browser: b.name, Key: hkcuPrefix + hostKey(b), Manifest: v})
	}
	return out, nil
}
