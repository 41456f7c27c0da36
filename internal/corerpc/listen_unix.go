//go:build unix

package corerpc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
)

// Listen creates the Core socket at path with mode 0600. The caller holds
// the host lock, so a file already at path is a stale socket of an exited
// host and is removed. The parent directory must already be 0700: the mode
// of the directory, not only of the socket, keeps other users out.
func Listen(path string) (net.Listener, error) {
	if fi, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("core rpc: %w", err)
	} else if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("core rpc: %s has mode %o; it must be 0700", filepath.Dir(path), fi.Mode().Perm())
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("core rpc: remove stale socket: %w", err)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("core rpc: listen: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("core rpc: chmod socket: %w", err)
	}
	return l, nil
}

// Dial connects to the Core socket at path.
func Dial(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}

// SelfUID is the uid peers must run as.
func SelfUID() int { return os.Getuid() }
