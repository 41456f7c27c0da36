//go:build windows

package statedir

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffsetHigh places the locked byte at 4 GiB, beyond the pid text.
// Windows byte-range locks are mandatory: locking the bytes that hold the
// pid would stop the refused host from reading who holds the lock.
const lockOffsetHigh = 1

// The lock is a LockFileEx byte-range lock, which Windows releases when
// the holder's handle closes, including when the process dies.
//
// tryLock opens (creating) the file at path and takes a LockFileEx
// byte-range lock without waiting; held reports another holder.
func tryLock(path string) (f *os.File, held bool, err error) {
	f, err = openLockFile(path)
	if err != nil {
		return nil, false, err
	}
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		return nil, errors.Is(err, windows.ERROR_LOCK_VIOLATION), err
	}
	return f, false, nil
}

// unlockClose drops a tryLock lock.
func unlockClose(f *os.File) {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
	_ = f.Close()
}
