package harness

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Vitals is what a process holds of the machine, read from /proc: its open
// descriptors (and how many of them are on STATE/state.db and its -wal and
// -shm files), its OS threads and its resident memory.
type Vitals struct {
	FDs      int
	StateDB  int
	Threads  int
	RSSBytes int64
}

func (v Vitals) String() string {
	return fmt.Sprintf("%d descriptors (%d on state.db), %d threads, RSS %.1f MB",
		v.FDs, v.StateDB, v.Threads, float64(v.RSSBytes)/(1<<20))
}

// HostVitals reads the serving host's Vitals (Linux only: it reads /proc).
func (e *Env) HostVitals(t testing.TB) Vitals {
	t.Helper()
	pid := e.HostPID()
	if pid == 0 {
		t.Fatal("no host pid in host.lock")
	}
	v, err := readVitals(pid, filepath.Join(e.StateDir, "state.db"))
	if err != nil {
		t.Fatalf("reading the host's vitals (pid %d): %v", pid, err)
	}
	return v
}

func readVitals(pid int, db string) (Vitals, error) {
	var v Vitals
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return v, err
	}
	v.FDs = len(fds)
	for _, fd := range fds {
		// A descriptor closed between ReadDir and Readlink is skipped.
		if target, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && strings.HasPrefix(target, db) {
			v.StateDB++
		}
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return v, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(value)
		if len(fields) == 0 {
			continue
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			continue
		}
		switch name {
		case "Threads":
			v.Threads = int(n)
		case "VmRSS":
			v.RSSBytes = n << 10 // reported in kB
		}
	}
	return v, sc.Err()
}

// WatchHostVitals samples the host's Vitals until the returned stop is
// called, which returns the largest value of each field seen (a sample is
// taken before WatchHostVitals returns and another when stop is called).
func (e *Env) WatchHostVitals(t testing.TB) (stop func() Vitals) {
	t.Helper()
	pid, db := e.HostPID(), filepath.Join(e.StateDir, "state.db")
	peak := e.HostVitals(t)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(pollInterval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			// A sample that fails (a descriptor gone mid-read) is skipped.
			if v, err := readVitals(pid, db); err == nil {
				peak = peak.max(v)
			}
		}
	}()
	return func() Vitals {
		close(done)
		<-finished
		return peak.max(e.HostVitals(t))
	}
}

func (v Vitals) max(o Vitals) Vitals {
	return Vitals{FDs: max(v.FDs, o.FDs), StateDB: max(v.StateDB, o.StateDB),
		Threads: max(v.Threads, o.Threads), RSSBytes: max(v.RSSBytes, o.RSSBytes)}
}
