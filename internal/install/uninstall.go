package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Uninstall removes the host manifests Install writes for opts (with "all",
// in every known browser, detected or not, since a browser may have gone
// since) and StateDir/extension. A manifest file under our name whose
// content names another host is left alone. It returns the paths it
// removed; paths that do not exist are not errors.
func Uninstall(opts Options) (removed []string, err error) {
	return defaultSystem().uninstall(opts)
}

func (s system) uninstall(opts Options) ([]string, error) {
	if err := s.supported(); err != nil {
		return nil, err
	}
	state, err := stateDir(opts.StateDir)
	if err != nil {
		return nil, err
	}
	dirs, err := s.manifestDirs(opts, true)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, dir := range dirs {
		path := filepath.Join(dir, manifestFile)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !isOurManifest(data) {
			continue
		}
		if err := os.Remove(path); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, path)
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
