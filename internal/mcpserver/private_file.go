package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// The adapter's private state is a few owner-only files of its own under
// STATE/adapters/ (the capability, the key seed of agentkeys.go). Spec 000:
// "Adapters must store a capability in owner-only private state".

// readPrivate reads one of the adapter's files: nil when there is none, an
// error when others could read it (such a file is not trusted, and not
// used).
func readPrivate(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// On Windows Go reports every writable file as 0666: access is the
	// ACL's, and the state directory under %LOCALAPPDATA% is the user's
	// own (internal/statedir/ensure_windows.go), so there is no mode to
	// check (adapters/core/src/private.ts skips it there too).
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s is readable by other users (mode %v); remove it", path, info.Mode().Perm())
	}
	return os.ReadFile(path)
}

// writeDurably replaces the file at path with data (mode 0600): a
// temporary file written and fsynced, renamed over the old one, and the
// directory fsynced, so a crash leaves the old or the new content whole.
func writeDurably(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
