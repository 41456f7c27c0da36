package install

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/google/go-cmp/cmp"
)

// tree reads a directory into path → content, and path → mode.
func tree(t *testing.T, root string) (files map[string]string, modes map[string]fs.FileMode) {
	t.Helper()
	files, modes = map[string]string{}, map[string]fs.FileMode{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		modes[filepath.ToSlash(rel)] = info.Mode().Perm()
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, modes
}

func TestInstallReplacesExtension(t *testing.T) {
	sys, home := fakeMachine{}.system(t)
	state := filepath.Join(home, "state")
	stale := filepath.Join(state, "extension", "old", "stale.js")
	if err := os.MkdirAll(filepath.Dir(stale), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}

	res, err := sys.install(Options{Browsers: []string{"chrome"}, StateDir: state, HostPath: hostPath})
	if err != nil {
		t.Fatal(err)
	}
	files, modes := tree(t, res.ExtensionDir)
	wantFiles := map[string]string{}
	for p, f := range fakeDist {
		wantFiles[p] = string(f.Data)
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("extension files (-want +got):\n%s", diff)
	}
	wantModes := map[string]fs.FileMode{
		".": 0o700, "background": 0o700, "popup": 0o700, "popup/assets": 0o700,
		"manifest.json": 0o600, "background/sw.js": 0o600, "popup/popup.html": 0o600, "popup/assets/app.css": 0o600,
	}
	if diff := cmp.Diff(wantModes, modes); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	// The swap leaves no temporary siblings behind.
	entries, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"extension"}, names); diff != "" {
		t.Errorf("state directory entries (-want +got):\n%s", diff)
	}
}

// TestInstallWritesEmbeddedExtension writes the real embedded dist, whatever
// the extension build holds today, and checks every file arrived.
func TestInstallWritesEmbeddedExtension(t *testing.T) {
	sys, home := fakeMachine{}.system(t)
	sys.dist = extension.Dist()
	res, err := sys.install(Options{Browsers: []string{"chromium"}, StateDir: filepath.Join(home, "state"), HostPath: hostPath})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := tree(t, res.ExtensionDir)
	want := map[string]string{}
	err = fs.WalkDir(sys.dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sys.dist, p)
		want[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("extension (-want +got):\n%s", diff)
	}
	if _, ok := got["manifest.json"]; !ok || strings.TrimSpace(got["manifest.json"]) == "" {
		t.Errorf("no manifest.json written")
	}
}
