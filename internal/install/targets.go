package install

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
)

// ErrNoBrowser is wrapped by Install's error when no browser was detected
// and none was named.
var ErrNoBrowser = errors.New("no supported browser found")

// selected returns the browsers opts selects, in browser-table order.
// anyKnown selects every known browser instead of only the detected ones
// for "all" (used by Uninstall, which must also clean a browser removed
// since install).
func (s system) selected(opts Options, anyKnown bool) ([]browser, error) {
	all := len(opts.Browsers) == 0
	var named []browser
	for _, n := range opts.Browsers {
		if n == AllBrowsers {
			all = true
			continue
		}
		b, err := browserByName(n)
		if err != nil {
			return nil, err
		}
		named = append(named, b)
	}
	var out []browser
	for _, b := range browsers {
		want := slices.ContainsFunc(named, func(n browser) bool { return n.name == b.name })
		if !want && all {
			if anyKnown {
				want = true
			} else if d, err := s.detected(b); err != nil {
				return nil, err
			} else {
				want = d
			}
		}
		if want {
			out = append(out, b)
		}
	}
	if len(out) == 0 && !anyKnown {
		return nil, fmt.Errorf("%w: looked for %s. Pass --browser NAME to register the host for a browser anyway, or --user-data-dir DIR for a browser started with --user-data-dir", ErrNoBrowser, s.lookedFor())
	}
	return out, nil
}

// manifestDirs returns the NativeMessagingHosts directories opts selects
// (Linux and macOS), in browser-table order. With a user-data dir only that
// profile's directory counts: a browser started with --user-data-dir reads
// no per-user directory (notes/chromium.md).
func (s system) manifestDirs(opts Options, anyKnown bool) ([]string, error) {
	if opts.UserDataDir != "" {
		// The names still have to be known, though only the profile counts.
		for _, n := range opts.Browsers {
			if _, err := browserByName(n); err != nil && n != AllBrowsers {
				return nil, err
			}
		}
		udd, err := filepath.Abs(opts.UserDataDir)
		if err != nil {
			return nil, fmt.Errorf("user data directory: %w", err)
		}
		return []string{filepath.Join(udd, hostsDirName)}, nil
	}
	bs, err := s.selected(opts, anyKnown)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, b := range bs {
		p, err := s.profileDir(b)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, filepath.Join(p, hostsDirName))
	}
	return dirs, nil
}
