//go:build unix

package upload

import (
	"os"
	"syscall"
)

// platformRefusal is empty: uploads are admitted here.
const platformRefusal = ""

// openNoFollow opens name in the held folder for reading without
// following a symlink in its last name and without blocking on a FIFO
// swapped in after the check (O_NONBLOCK; it changes nothing for a
// regular file's reads). os.Root adds O_NOFOLLOW itself and, on ELOOP,
// follows a symlink that stays inside the folder; the caller's identity
// check (os.SameFile with the Lstat'ed file) refuses that other file, and
// Root refuses one that leads out.
func openNoFollow(root *os.Root, name string) (*os.File, error) {
	return root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
