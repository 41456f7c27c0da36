//go:build unix

package statedir

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// secure refuses a directory that another user owns (that user could read or
// replace every state file, so chmod would not help) and then narrows the
// mode of ours to 0700.
func secure(dir string, fi fs.FileInfo) error {
	if err := checkOwner(dir, fi, os.Getuid()); err != nil {
		return err
	}
	if fi.Mode().Perm() == 0o700 {
		return nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("state directory %s: making it owner-only: %w", dir, err)
	}
	return nil
}

func checkOwner(dir string, fi fs.FileInfo, uid int) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("state directory %s: cannot read its owner", dir)
	}
	if int(st.Uid) != uid {
		return &OwnerError{Dir: dir, OwnerUID: int(st.Uid), UID: uid}
	}
	return nil
}
