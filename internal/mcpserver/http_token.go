package mcpserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// minTokenLen refuses a hand-written token short enough to guess; a made
// one is 64 hex digits (32 random bytes).
const minTokenLen = 32

// LoadOrCreateToken returns the bearer token kept in path, first creating
// path (0600, its directory 0700) with a new random token when it is
// missing. It refuses a file group or others may read or write: the token
// lets its holder drive the user's signed-in browser.
func LoadOrCreateToken(path string) (string, error) {
	token, err := readToken(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return token, err
	}
	if err := createToken(path); err != nil {
		return "", err
	}
	return readToken(path)
}

func readToken(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("bearer token file %s: %w", path, err)
	}
	defer f.Close()
	// Stat the open file, not the path, so the checked file is the read one.
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("bearer token file %s: %w", path, err)
	}
	if problem := checkTokenFile(path, fi, runtime.GOOS); problem != "" {
		return "", fmt.Errorf("bearer token file %s: %s", path, problem)
	}
	data, err := io.ReadAll(io.LimitReader(f, 1024))
	if err != nil {
		return "", fmt.Errorf("bearer token file %s: %w", path, err)
	}
	token := strings.TrimSpace(string(data))
	if len(token) < minTokenLen || strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r > '~' }) {
		return "", fmt.Errorf("bearer token file %s: it must hold one token of at least %d printable ASCII characters and nothing else; delete it to make a new one", path, minTokenLen)
	}
	return token, nil
}

// checkTokenFile returns why fi is not an acceptable token file, or "".
func checkTokenFile(path string, fi fs.FileInfo, goos string) string {
	if !fi.Mode().IsRegular() {
		return "it is not a regular file"
	}
	// Windows has no permission bits to check; the file inherits the
	// owner-only ACL of %LOCALAPPDATA%.
	if goos == "windows" {
		return ""
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("its mode %04o lets group or others read or write it, and the token lets its holder drive your browser; run: chmod 600 %s (or delete it to make a new token)", perm, path)
	}
	return ""
}

// createToken writes a new token to a temporary file and links it into
// place, so that a second `agenttab mcp --http` starting at the same moment
// reads either no file or a complete one, and the first token made wins.
func createToken(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("bearer token directory %s: %w", dir, err)
	}
	secret := make([]byte, 32)
	rand.Read(secret)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("bearer token file %s: %w", path, err)
	}
	// CreateTemp makes the file 0600; the link keeps the mode.
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(secret) + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bearer token file %s: writing it: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("bearer token file %s: %w", path, err)
	}
	return nil
}
