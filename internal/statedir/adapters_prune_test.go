package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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
