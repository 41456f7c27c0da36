package statedir

import (
	"path/filepath"
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
