package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Two adapters of one name never share a file; a released file is handed
// to the next claimant.
func TestClaimAdapterFile(t *testing.T) {
	d := Dir(t.TempDir())
	first, releaseFirst, err := d.ClaimAdapterFile("mcp-stdio-7", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	second, releaseSecond, err := d.ClaimAdapterFile("mcp-stdio-7", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	defer releaseSecond()
	if first == second {
		t.Fatalf("two live adapters share %s", first)
	}
	if want := filepath.Join(d.Adapters(), "mcp-stdio-7.capability"); first != want {
		t.Errorf("first claim %s, want %s", first, want)
	}
	releaseFirst()
	again, releaseAgain, err := d.ClaimAdapterFile("mcp-stdio-7", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	defer releaseAgain()
	if again != first {
		t.Errorf("after release the claim is %s, want %s back", again, first)
	}
}

// Release removes the lock file: STATE/adapters/ does not fill up with one
// per agent process that ever ran (issue 9).
func TestReleaseRemovesTheLockFile(t *testing.T) {
	d := Dir(t.TempDir())
	path, release, err := d.ClaimAdapterFile("mcp-stdio-9", ".capability")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Fatalf("no lock file while claimed: %v", err)
	}
	release()
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the lock file outlived its release: %v", err)
	}
}

// Claims and releases racing on one name never give one file to two
// holders at once, although releases remove the lock files (claimLock).
// flock locks belong to open file descriptions, so goroutines of one
// process contend as adapters do.
func TestClaimsNeverOverlap(t *testing.T) {
	d := Dir(t.TempDir())
	var mu sync.Mutex
	holders := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 300 {
				path, release, err := d.ClaimAdapterFile("mcp-stdio-1", ".capability")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				holders[path]++
				overlap := holders[path] > 1
				mu.Unlock()
				if overlap {
					t.Errorf("%s has two holders", path)
				}
				mu.Lock()
				holders[path]--
				mu.Unlock()
				release()
			}
		}()
	}
	wg.Wait()
}
