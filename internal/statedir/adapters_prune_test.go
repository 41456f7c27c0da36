package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A claim removes the kept files of sessions long over, and nothing a
// live adapter (Go's flock or TypeScript's lock file) holds, nothing
// fresh, nothing else.
func TestClaimPrunesSessionsLongOver(t *testing.T) {
	d := Dir(t.TempDir())
	dir := d.Adapters()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-AdapterFilesKept - time.Minute)
	write := func(name, content string, at time.Time) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kept := func(base string, at time.Time) []string {
		return []string{write(base+".capability", "cap", at), write(base+".keys", "{}", at)}
	}
	var gone, stay []string
	gone = append(gone, kept("pi-0000000000000001", old)...)
	gone = append(gone, kept("mcp-stdio-11", old)...)
	gone = append(gone, write("mcp-stdio-11.capability.lock", "", old)) // a dead Go claim
	gone = append(gone, write("mcp-stdio-12.capability.lock", "", old)) // one that never wrote
	stay = append(stay, kept("pi-0000000000000002", time.Now())...)     // fresh
	stay = append(stay, write("pi-0000000000000003.capability", "cap", old),
		write("pi-0000000000000003.keys", "{}", time.Now())) // written lately
	// A live TypeScript claim: content, which Go's flock cannot see.
	stay = append(stay, kept("omp-0000000000000004", old)...)
	stay = append(stay, write("omp-0000000000000004.capability.lock", strconv.Itoa(os.Getpid())+" - 00\n", old))
	// A live Go claim.
	held, release, err := d.ClaimAdapterFile("mcp-stdio-13", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	stay = append(stay, kept("mcp-stdio-13", old)...)
	stay = append(stay, write("http-token", "secret", old), write(".claim-mutex", "1 - 00\n", old),
		write(".pi-0000000000000001.capability-0a0b0c", "tmp", old), write("notes.txt", "", old))
	if err := os.Chtimes(held+".lock", old, old); err != nil {
		t.Fatal(err)
	}
	stay = append(stay, held+".lock")

	_, releaseNew, err := d.ClaimAdapterFile("mcp-stdio-14", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	defer releaseNew()
	for _, p := range gone {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s of a session long over stayed: %v", filepath.Base(p), err)
		}
	}
	for _, p := range stay {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}

// A lock file with content is a TypeScript adapter's claim: a Go claimant
// of the name moves on although its flock succeeds.
func TestClaimSkipsTypeScriptLocks(t *testing.T) {
	d := Dir(t.TempDir())
	if err := os.MkdirAll(d.Adapters(), 0o700); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(d.Adapters(), "mcp-stdio-5.capability")
	if err := os.WriteFile(first+".lock", []byte("1 - 00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, release, err := d.ClaimAdapterFile("mcp-stdio-5", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if want := filepath.Join(d.Adapters(), "mcp-stdio-5-2.capability"); got != want {
		t.Errorf("claimed %s, want %s", got, want)
	}
}

// A release marks the kept files as used until then: its task detaches
// only as the adapter exits, so its kept time starts afresh.
func TestReleaseRenewsKeptFiles(t *testing.T) {
	d := Dir(t.TempDir())
	path, release, err := d.ClaimAdapterFile("mcp-stdio-6", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-AdapterFilesKept - time.Minute)
	keys := path[:len(path)-len(".capability")] + ".keys"
	for _, p := range []string{path, keys} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	release()
	for _, p := range []string{path, keys} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !st.ModTime().After(old.Add(AdapterFilesKept)) {
			t.Errorf("%s: modified %s after its release", filepath.Base(p), st.ModTime())
		}
	}
}

// While a claim is held its kept files are marked as in use every
// KeptTouchEvery: an adapter killed outright never releases, and its
// task detaches only as it dies.
func TestHeldClaimRenewsKeptFiles(t *testing.T) {
	d := Dir(t.TempDir())
	path, release, err := d.claimAdapterFile("mcp-stdio-15", ".capability", 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	old := time.Now().Add(-AdapterFilesKept - time.Minute)
	files := []string{path, strings.TrimSuffix(path, ".capability") + ".keys"}
	for _, p := range files {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, p := range files {
		for {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.ModTime().After(old.Add(AdapterFilesKept)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still modified %s while its claim is held", filepath.Base(p), st.ModTime())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// A lock that appears, or is replaced, between the pruner's first look and
// its claim is a claimant's: where hard links are refused, a TypeScript
// claimant creates its lock empty and only then writes it, and in that
// instant it reads as a dead Go claim. The pruner leaves it and the files.
func TestPruneLeavesALockThatAppeared(t *testing.T) {
	old := time.Now().Add(-AdapterFilesKept - time.Minute)
	cases := []struct {
		name     string
		lockedAt bool // a dead Go claim's empty lock is there at the first look
		race     bool // a claimant creates its lock after the first look
		pruned   bool
	}{
		{"no lock, none appears", false, false, true},
		{"a dead lock, none appears", true, false, true},
		{"no lock, one appears", false, true, false},
		{"a dead lock, replaced", true, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			base := filepath.Join(dir, "omp-0000000000000007")
			lock := base + ".capability.lock"
			files := []string{base + ".capability", base + ".keys"}
			if tc.lockedAt {
				files = append(files, lock)
			}
			for _, p := range files {
				if err := os.WriteFile(p, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
			if tc.race {
				pruneLooked = func(l string) {
					if l != lock {
						return
					}
					// A release removes the dead lock (if any) and a
					// TypeScript claimant creates its own, not yet written.
					_ = os.Remove(lock)
					if err := os.WriteFile(lock, nil, 0o600); err != nil {
						t.Error(err)
					}
				}
				defer func() { pruneLooked = func(string) {} }()
			}
			pruneAdapterFiles(dir, time.Now())
			for _, p := range append(files[:2:2], lock) {
				_, err := os.Lstat(p)
				switch {
				case tc.pruned && !errors.Is(err, fs.ErrNotExist):
					t.Errorf("%s stayed: %v", filepath.Base(p), err)
				case !tc.pruned && err != nil:
					t.Errorf("%s was removed: %v", filepath.Base(p), err)
				}
			}
		})
	}
}
