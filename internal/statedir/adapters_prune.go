package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// AdapterFilesKept is how long an adapter's kept files (a capability, its
// key seed) outlive their last write or release: the host finishes a
// detached task after protocol.DetachedTaskResumableMs (ARCHITECTURE.md
// "Bounds on tasks"), and a capability is a bearer secret at rest that is
// useless once the host has forgotten its task. The hour is a margin for
// the task detaching a little after its adapter's release.
// (adapters/core/src/prune.ts uses it through mcpserver.adapterConstants.)
const AdapterFilesKept = protocol.DetachedTaskResumableMs*time.Millisecond + time.Hour

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

func pruneName(base string, cutoff time.Time) {
	kept := []string{base + capabilityExt, base + keysExt}
	lock := base + claimLockExt
	if !allOlder(cutoff, append(kept, lock)...) {
		return
	}
	f, held, err := claimLock(lock)
	if held || err != nil {
		return
	}
	defer unlockClose(f)
	if st, err := f.Stat(); err != nil || st.Size() > 0 {
		return // a TypeScript adapter's claim, or unknown: never ours to judge
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

// touchKept marks a name's kept files as in use until now: its task
// detaches when its adapter exits, so a release starts the files' kept
// time afresh.
func touchKept(base string, now time.Time) {
	for _, p := range []string{base + capabilityExt, base + keysExt} {
		_ = os.Chtimes(p, now, now)
	}
}
