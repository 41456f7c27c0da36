//go:build unix

package statedir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// The lock is an flock(2) on the file: the kernel drops it when the
// holder exits, however it exits, so a crashed host never leaves a stale
// lock behind. flock locks belong to the open file description, so even a
// second acquisition in the same process is refused.
//
// tryLock opens (creating) the file at path and locks it exclusively
// without waiting; held reports that another open file holds the lock.
func tryLock(path string) (f *os.File, held bool, err error) {
	f, err = openLockFile(path)
	if err != nil {
		return nil, false, err
	}
	if err := flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, errors.Is(err, unix.EWOULDBLOCK), err
	}
	return f, false, nil
}

// unlockClose drops a tryLock lock.
func unlockClose(f *os.File) {
	_ = flock(int(f.Fd()), unix.LOCK_UN)
	_ = f.Close()
}

// flock retries on EINTR, which a signal can cause even for a
// non-blocking request.
func flock(fd, how int) error {
	for {
		err := unix.Flock(fd, how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
