package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/agenttab/agenttab/internal/chromium"
)

// fakeDist stands in for the embedded extension so tests do not depend on
// what the extension build currently holds.
var fakeDist = fstest.MapFS{
	"manifest.json":        {Data: []byte(`{"manifest_version":3}`)},
	"background/sw.js":     {Data: []byte("// worker\n")},
	"popup/popup.html":     {Data: []byte("<!doctype html>\n")},
	"popup/assets/app.css": {Data: []byte("body{}\n")},
}

// fakeMachine is a temporary home with the given profile directories and
// the given executables on PATH.
type fakeMachine struct {
	goos     string
	profiles []string // directories relative to home, created
	onPath   []string // executable names LookPath resolves
}

func (m fakeMachine) system(t *testing.T) (system, string) {
	t.Helper()
	home := t.TempDir()
	for _, p := range m.profiles {
		if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(p)), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	onPath := map[string]bool{}
	for _, n := range m.onPath {
		onPath[n] = true
	}
	goos := m.goos
	if goos == "" {
		goos = "linux"
	}
	return system{
		goos: goos,
		home: func() (string, error) { return home, nil },
		finder: chromium.Finder{
			Getenv: func(string) string { return "" },
			LookPath: func(name string) (string, error) {
				if onPath[name] {
					return "/usr/bin/" + name, nil
				}
				return "", errors.New("not on PATH")
			},
			Stat: func(string) (fs.FileInfo, error) { return nil, fs.ErrNotExist },
			GOOS: goos,
		},
		dist: fakeDist,
	}, home
}
