package mcpserver

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTokenCreatedOwnerOnlyAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "adapters", "http-token")
	token, err := LoadOrCreateToken(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := hex.DecodeString(token); err != nil || len(b) != 32 {
		t.Fatalf("token %q is not 32 random bytes in hex", token)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: %v, mode %v, want %o", p, err, fi.Mode().Perm(), want)
		}
	}
	if again, err := LoadOrCreateToken(path); err != nil || again != token {
		t.Fatalf("second load: %q, %v; want the same token", again, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestTokenFileRefused(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		mode          os.FileMode
		want          string
	}{
		{"group readable", testToken, 0o640, "chmod 600"},
		{"world readable", testToken, 0o604, "mode 0604"},
		{"empty", "", 0o600, "at least 32"},
		{"short", "secret", 0o600, "at least 32"},
		{"two tokens", testToken + " " + testToken, 0o600, "nothing else"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "http-token")
			if err := os.WriteFile(path, []byte(tc.content), tc.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tc.mode) // past the umask
			_, err := LoadOrCreateToken(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want an error naming %s and saying %q", err, path, tc.want)
			}
			if strings.Contains(err.Error(), testToken) {
				t.Fatal("the error reveals the token")
			}
		})
	}
}
