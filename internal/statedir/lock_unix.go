//go:build unix

package statedir

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// AcquireHostLock takes the exclusive host lock of d without waiting. It
// returns *HostRunningError when another host holds it. The lock is an
// flock(2) on host.lock: the kernel drops it when the holder exits, however
// it exits, so a crashed host never leaves a stale lock behind. flock locks
// belong to the open file description, so even a second acquisition in the
// same process is refused.
func AcquireHostLock(d Dir) (release func(), err error) {
	path := d.Lock()
	f, held, err := tryLock(path)
	if held {
		return nil, &HostRunningError{PID: readHolderPID(path), Dir: string(d)}
	}
	if err != nil {
		return nil, fmt.Errorf("host lock %s: %w", path, err)
	}
	if err := writePID(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("host lock %s: writing pid: %w", path, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			// Clear the pid first so that nobody reports a host that is
			// gone. The file itself stays: removing it would let a waiting
			// opener lock an unlinked inode while a third opens a new one.
			_ = f.Truncate(0)
			unlockClose(f)
		})
	}, nil
}

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
