package tsgen

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/sample.ts.golden")

// TestGolden pins every mapping on a package made for it.
func TestGolden(t *testing.T) {
	got, err := Generate(filepath.Join("testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.ts.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("output differs from %s (-want +got); refresh with go test ./internal/tsgen -update:\n%s", golden, d)
	}
}

// TestCommittedIsFresh fails when extension/src/protocol/generated.ts does
// not match package protocol.
func TestCommittedIsFresh(t *testing.T) {
	dir, err := PackageDir(ProtocolPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(dir, "..", "extension", "src", "protocol", "generated.ts")
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v; regenerate with: %s", err, Command)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("extension/src/protocol/generated.ts is stale; regenerate with: %s\n(-committed +fresh):\n%s", Command, d)
	}
}

// TestRefusesUnmappable checks that a shape without an exact TypeScript
// form fails instead of degrading.
func TestRefusesUnmappable(t *testing.T) {
	for name, src := range map[string]string{
		"embedded":    "package p\ntype In struct{ A int }\ntype Out struct{ In }\n",
		"json option": "package p\ntype T struct{ A int `json:\"a,string\"` }\n",
		"foreign":     "package p\nimport \"time\"\ntype T struct{ A time.Time }\n",
		"channel":     "package p\ntype T struct{ A chan int }\n",
		"big int":     "package p\nconst Big = 1 << 60\n",
		"int key":     "package p\ntype T struct{ A map[int]string }\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := Generate(dir); err == nil {
				t.Errorf("Generate succeeded:\n%s", out)
			}
		})
	}
}
