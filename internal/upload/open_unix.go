//go:build unix

package upload

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading without following a symlink in
// its last name (ELOOP) and without blocking on a FIFO swapped in after
// the check (O_NONBLOCK; it changes nothing for a regular file's reads).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
