package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxAdapterSlots bounds the numbered files one adapter name may claim
// (adapters/core/src/claim.ts uses it through mcpserver.adapterConstants).
const MaxAdapterSlots = 64

// ClaimAdapterFile claims an adapter's private file STATE/adapters/
// name.ext for as long as the process runs (or until release), so that two
// adapters never share one: each file has a lock file beside it, and a
// name whose file another live adapter holds moves on to name-2.ext,
// name-3.ext... A restarted adapter gets the lowest free one back, with
// what its predecessor left in it. The lock dies with its process; release
// also removes the lock file (claimLock says why that is safe), and marks
// the kept files as used until then, as the claim does every
// KeptTouchEvery while it is held (a killed adapter never releases).
//
// A lock file with content is a TypeScript adapter's claim
// (adapters/core/src/claim.ts: Node has no flock), held whatever flock
// says. And every claim also removes the kept files of sessions long over:
// other names' .capability and .keys files (and their lock files) last
// written more than AdapterFilesKept ago whose claim no live adapter, of
// either language, holds (pruneAdapterFiles).
func (d Dir) ClaimAdapterFile(name, ext string) (path string, release func(), err error) {
	return d.claimAdapterFile(name, ext, KeptTouchEvery)
}

// claimAdapterFile is ClaimAdapterFile touching the kept files every
// touchEvery (tests shorten it).
func (d Dir) claimAdapterFile(name, ext string, touchEvery time.Duration) (path string, release func(), err error) {
	dir := d.Adapters()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("adapter state %s: %w", dir, err)
	}
	for slot := 1; slot <= MaxAdapterSlots; slot++ {
		base := name
		if slot > 1 {
			base = fmt.Sprintf("%s-%d", name, slot)
		}
		path = filepath.Join(dir, base+ext)
		lock := path + ".lock"
		f, held, err := claimLock(lock)
		if held {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("adapter state %s: %w", path, err)
		}
		st, err := f.Stat()
		if err != nil {
			unlockClose(f)
			return "", nil, fmt.Errorf("adapter state %s: %w", lock, err)
		}
		if st.Size() > 0 {
			unlockClose(f) // a TypeScript adapter's claim (see above)
			continue
		}
		pruneAdapterFiles(dir, time.Now())
		stopTouching := func() {}
		if ext == capabilityExt {
			stopTouching = keepTouching(strings.TrimSuffix(path, ext), touchEvery)
		}
		return path, func() {
			stopTouching()
			if ext == capabilityExt {
				touchKept(strings.TrimSuffix(path, ext), time.Now())
			}
			// Removed while still locked, never after: see claimLock.
			// (On Windows the removal fails while the file is open, and the
			// file stays, which is harmless.)
			_ = os.Remove(lock)
			unlockClose(f)
		}, nil
	}
	return "", nil, fmt.Errorf("adapter state: %d adapters named %s are running", MaxAdapterSlots, name)
}

// maxClaimRetries bounds claimLock's attempts on a path whose lock file
// keeps being replaced.
const maxClaimRetries = 100

// claimLock locks the lock file at path and returns it once the lock is on
// the file path names: removing a lock file has a classic race, and this
// closes it. A claimant may open the file, then its holder removes it and
// unlocks, and the claimant's lock then succeeds on a file no longer at
// path, while a third adapter creates a new file there and locks that:
// two holders of one claim. So, with the rule that only a holder removes
// its lock file and only while still locking it (release above), a lock
// counts only when path still names the locked file afterwards. Two
// claimants that both pass that check hold locks on files path named at
// their checks; the same file is impossible (the lock is exclusive), and
// for two different files the earlier one was removed between the two
// checks, which only its holder does, at release. A claimant that finds
// its file removed opens path again.
func claimLock(path string) (f *os.File, held bool, err error) {
	// Each retry means another adapter released this claim meanwhile: a
	// few are plenty for adapters, which claim once at start; the bound is
	// high enough that claimants racing in a loop (TestClaimsNeverOverlap,
	// 8 goroutines on 2 loaded cores) do not run out of retries.
	for range maxClaimRetries {
		f, held, err := tryLock(path)
		if held || err != nil {
			return nil, held, err
		}
		locked, err := f.Stat()
		if err != nil {
			unlockClose(f)
			return nil, false, err
		}
		named, err := os.Stat(path)
		if err == nil && os.SameFile(locked, named) {
			return f, false, nil
		}
		unlockClose(f)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
	}
	return nil, false, fmt.Errorf("%s: the lock file was replaced under each of %d claims", path, maxClaimRetries)
}
