//go:build windows

package statedir

import (
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sys/windows"
)

// lockOffsetHigh places the locked byte at 4 GiB, beyond the pid text.
// Windows byte-range locks are mandatory: locking the bytes that hold the
// pid would stop the refused host from reading who holds the lock.
const lockOffsetHigh = 1

// AcquireHostLock takes the exclusive host lock of d without waiting. It
// returns *HostRunningError when another host holds it. The lock is a
// LockFileEx byte-range lock on host.lock, which Windows releases when the
// holder's handle closes, including when the process dies.
func AcquireHostLock(d Dir) (release func(), err error) {
	path := d.Lock()
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	h := windows.Handle(f.Fd())
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err = windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, &HostRunningError{PID: readHolderPID(path), Dir: string(d)}
		}
		return nil, fmt.Errorf("host lock %s: %w", path, err)
	}
	if err := writePID(f); err != nil {
		_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
		f.Close()
		return nil, fmt.Errorf("host lock %s: writing pid: %w", path, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = f.Truncate(0)
			_ = windows.UnlockFileEx(h, 0, 1, 0, ol)
			_ = f.Close()
		})
	}, nil
}
