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
	// reg is HKCU on "windows" (a fresh one when nil); LOCALAPPDATA is
	// HOME/AppData/Local there.
	reg *fakeRegistry
}

// fakeRegistry is HKCU as a map from key to default value.
type fakeRegistry struct {
	values map[string]string
}

func newFakeRegistry() *fakeRegistry { return &fakeRegistry{values: map[string]string{}} }

func (r *fakeRegistry) SetDefault(key, value string) error {
	r.values[key] = value
	return nil
}

func (r *fakeRegistry) Default(key string) (string, bool, error) {
	v, ok := r.values[key]
	return v, ok, nil
}

func (r *fakeRegistry) DeleteKey(key string) error {
	delete(r.values, key)
	return nil
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
	reg := m.reg
	if reg == nil {
		reg = newFakeRegistry()
	}
	env := map[string]string{"LOCALAPPDATA": filepath.Join(home, "AppData", "Local")}
	return system{
		goos:     goos,
		home:     func() (string, error) { return home, nil },
		getenv:   func(k string) string { return env[k] },
		registry: reg,
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
