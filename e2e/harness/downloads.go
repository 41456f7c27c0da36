package harness

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// DownloadDir is where this Env's Chromium saves downloads: inside its own
// profile, so tests never write to the user's Downloads folder.
func (e *Env) DownloadDir() string { return filepath.Join(e.UserDataDir, "Downloads") }

// presetDownloads writes the profile's first Preferences (Chromium keeps
// and rewrites the file afterwards) so downloads go to DownloadDir without
// a prompt.
func (e *Env) presetDownloads(t testing.TB) {
	t.Helper()
	prefs := filepath.Join(e.UserDataDir, "Default", "Preferences")
	if _, err := os.Stat(prefs); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	b, _ := json.Marshal(map[string]any{"download": map[string]any{"default_directory": e.DownloadDir(), "prompt_for_download": false}})
	if err := os.MkdirAll(filepath.Dir(prefs), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prefs, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
