//go:build unix

package statedir

import (
	"errors"
	"fmt"
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
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	if err := flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &HostRunningError{PID: readHolderPID(path), Dir: string(d)}
		}
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
			_ = flock(int(f.Fd()), unix.LOCK_UN)
			_ = f.Close()
		})
	}, nil
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
