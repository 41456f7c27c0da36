package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Uninstall removes the host registrations Install makes for opts (with
// "all", in every known browser, detected or not, since a browser may have
// gone since) and StateDir/extension. A manifest file under our name whose
// content names another host, and on Windows a registry key that points
// at another manifest, are left alone. It returns what it removed; what
// does not exist is not an error.
func Uninstall(opts Options) (removed []string, err error) {
	return defaultSystem().uninstall(opts)
}

func (s system) uninstall(opts Options) ([]string, error) {
	state, err := stateDir(opts.StateDir)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	if s.goos == "windows" {
		if opts.UserDataDir != "" {
			return nil, errUserDataDirOnWindows
		}
		bs, err := s.selected(opts, true)
		if err != nil {
			return nil, err
		}
		r, err := s.unregisterWindows(state, bs)
		removed, errs = append(removed, r...), append(errs, err)
	} else {
		dirs, err := s.manifestDirs(opts, true)
		if err != nil {
			return nil, err
		}
		for _, dir := range dirs {
			path := filepath.Join(dir, manifestFile)
			if r, err := removeOurManifest(path); err != nil {
				errs = append(errs, err)
			} else if r {
				removed = append(removed, path)
			}
		}
	}
	extDir := filepath.Join(state, extensionDirName)
	if _, err := os.Lstat(extDir); err == nil {
		if err := os.RemoveAll(extDir); err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", extDir, err))
		} else {
			removed = append(removed, extDir)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	return removed, errors.Join(errs...)
}
