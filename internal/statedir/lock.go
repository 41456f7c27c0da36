package statedir

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// HostRunningError says that another host already holds the state
// directory's lock. Two hosts on one directory would both write state.db
// and both serve core.sock, so the second refuses to start (DESIGN.md: "A
// second host for the same state directory refuses to start and says why").
type HostRunningError struct {
	// PID is the holder's process id, 0 when the holder has not written it
	// yet (it writes it right after taking the lock).
	PID int
	Dir string
}

func (e *HostRunningError) Error() string {
	who := "pid unknown"
	if e.PID > 0 {
		who = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("another AgentTab host (%s) already serves the state directory %s; "+
		"close the other browser that runs it, or give this browser its own state directory with AGENTTAB_STATE_DIR",
		who, e.Dir)
}

// readHolderPID reads the pid the holder wrote into the lock file. Any
// failure gives 0: the pid only decorates the error message.
func readHolderPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// writePID replaces the lock file's content with our pid. It runs only while
// we hold the lock, so no other host writes at the same time.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		return err
	}
	return f.Sync()
}

// openLockFile opens (creating) the lock file owner-only. An existing file
// is narrowed to 0600 as well: it is state like any other.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("host lock %s: %w", path, err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("host lock %s: making it owner-only: %w", path, err)
	}
	return f, nil
}

// AcquireHostLock takes the exclusive host lock of d (host.lock) without
// waiting. It returns *HostRunningError when another host holds it. The
// lock dies with its holder (tryLock, per platform).
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
		unlockClose(f)
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
