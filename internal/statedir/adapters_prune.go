package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// AdapterFilesKept is how long an adapter's kept files (a capability, its
// key seed) outlive their last write or release: the host finishes a
// detached task after protocol.DetachedTaskResumableMs (ARCHITECTURE.md
// "Bounds on tasks"), and a capability is a bearer secret at rest that is
// useless once the host has forgotten its task. The hour is a margin for
// the task detaching a little after its adapter's release, and for
// KeptTouchEvery. (adapters/core/src/prune.ts uses it through
// mcpserver.adapterConstants.)
const AdapterFilesKept = protocol.DetachedTaskResumableMs*time.Millisecond + keptMargin

const keptMargin = time.Hour

// KeptTouchEvery is how often a held claim marks its kept files as in use
// (keepTouching). An adapter killed outright (SIGKILL, a crash) never
// releases, and its task detaches only as it dies, however long it ran
// since its files were last written: the last touch is all a pruner can
// go by. Touched at most KeptTouchEvery before the death, the files
// outlive the host's detached lifetime by at least keptMargin minus this.
// A timer rather than each call: an idle session's task stays attached
// for as long as its connection lives. (adapters/core/src/claim.ts uses it
// through mcpserver.adapterConstants.)
const KeptTouchEvery = keptMargin / 2

// An adapter's kept files: the capability, and its key seed beside it
// (internal/mcpserver/agentkeys.go and adapters/core/src/keys.ts,
// keysFileFor), both under the claim on the capability's lock file.
const (
	capabilityExt = ".capability"
	keysExt       = ".keys"
	claimLockExt  = capabilityExt + ".lock"
)

// pruneAdapterFiles removes, from the adapters directory, the kept files
// of sessions long over: a name's .capability, .keys and lock file go
// when each that is there was last written more than AdapterFilesKept
// ago and no live adapter holds its claim. It claims the name first, as
// an adapter would (so a claimant racing it gets another slot), and
// leaves a name alone whose lock file has content: that is a TypeScript
// adapter's claim (adapters/core/src/claim.ts), which Go's flock cannot
// see, and its pruner judges it by its own liveness rule. Nothing else in
// the directory (http-token, the claim mutex, temporary files) is
// touched. Best effort: a failure leaves files for the next claimant.
// (A TypeScript claim's liveness is its pid and start time, liveness.ts:
// a state directory shared across PID namespaces, containers, makes a
// live holder there look dead.)
func pruneAdapterFiles(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	seen := map[string]bool{}
	for _, e := range entries {
		base, ok := keptBase(e.Name())
		if ok && !seen[base] {
			seen[base] = true
			pruneName(filepath.Join(dir, base), now.Add(-AdapterFilesKept))
		}
	}
}

// keptBase is the name whose kept file or claim lock file name is.
func keptBase(name string) (string, bool) {
	for _, ext := range []string{claimLockExt, capabilityExt, keysExt} {
		if base, ok := strings.CutSuffix(name, ext); ok && base != "" {
			return base, true
		}
	}
	return "", false
}

// pruneName prunes one name. Its lock file is looked at before the age
// check and must be the same file, unchanged, once claimed: where hard
// links are refused a TypeScript claimant creates its lock empty and only
// then writes it (liveness.ts linkNew), and in that instant it reads as a
// dead Go claim. So a lock that appeared after the first look is never
// claimed here (with none there, the pruner creates its own, O_EXCL), and
// one replaced or written meanwhile is left alone.
func pruneName(base string, cutoff time.Time) {
	kept := []string{base + capabilityExt, base + keysExt}
	lock := base + claimLockExt
	first, err := os.Lstat(lock)
	absent := errors.Is(err, fs.ErrNotExist)
	if err != nil && !absent {
		return
	}
	if !allOlder(cutoff, append(kept, lock)...) {
		return
	}
	pruneLooked(lock)
	if absent {
		if first, err = createLock(lock); err != nil {
			return // EEXIST: a claimant's lock appeared
		}
	}
	f, held, err := claimLock(lock)
	if held || err != nil {
		return
	}
	defer unlockClose(f)
	st, err := f.Stat()
	if err != nil || st.Size() > 0 || !os.SameFile(first, st) || !st.ModTime().Equal(first.ModTime()) {
		return // a TypeScript adapter's claim, a new one, or unknown: never ours to judge
	}
	// Written or released since the first look: in use after all.
	if allOlder(cutoff, kept...) {
		for _, p := range kept {
			_ = os.Remove(p)
		}
	}
	// Removed while still locked, as a release does (claimLock).
	_ = os.Remove(lock)
}

// pruneLooked runs between pruneName's first look and its claim (a test's
// claimant races there).
var pruneLooked = func(lock string) {}

// createLock creates an empty lock file where there is none.
func createLock(path string) (fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// allOlder says whether every one of the files that is there was last
// modified before cutoff; anything but a regular file keeps the name.
func allOlder(cutoff time.Time, paths ...string) bool {
	for _, p := range paths {
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !st.Mode().IsRegular() || !st.ModTime().Before(cutoff) {
			return false
		}
	}
	return true
}

// keepTouching marks a held claim's kept files as in use every
// KeptTouchEvery (every, for tests) until stop returns.
func keepTouching(base string, every time.Duration) (stop func()) {
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				touchKept(base, time.Now())
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-exited
	}
}

// touchKept marks a name's kept files as in use until now: its task
// detaches when its adapter exits, so a release (and, until then,
// keepTouching) starts the files' kept time afresh.
func touchKept(base string, now time.Time) {
	for _, p := range []string{base + capabilityExt, base + keysExt} {
		_ = os.Chtimes(p, now, now)
	}
}
