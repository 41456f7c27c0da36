package releasetrust

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeTools records the command lines macCheck runs and refuses the one
// named in refuse with its output.
type fakeTools struct {
	ran    [][]string
	refuse string
	output string
}

func (f *fakeTools) run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.ran = append(f.ran, append([]string{name}, args...))
	if name == f.refuse {
		return []byte(f.output), errors.New("exit status 3")
	}
	return nil, nil
}

// macOS: a bare command-line binary is checked by codesign and by
// Gatekeeper's assessment of its primary signature, never by the "execute"
// assessment, which refuses every binary that is not an app.
func TestMacCheckCommandLines(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "agenttab")
	f := &fakeTools{}
	if err := (macCheck{run: f.run}).Check(bin); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"codesign", "--verify", "--strict", bin},
		{"spctl", "--assess", "--type", "open", "--context", "context:primary-signature", bin},
	}
	if d := cmp.Diff(want, f.ran); d != "" {
		t.Errorf("commands (-want +got):\n%s", d)
	}
}

// Either tool's refusal fails the file, with the tool's own words, and a
// refused signature is not assessed further.
func TestMacCheckFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		refuse, output string
		ran            int
	}{
		{"codesign", "agenttab: code object is not signed at all", 1},
		{"spctl", "agenttab: rejected\nsource=Unnotarized Developer ID", 2},
	} {
		t.Run(tc.refuse, func(t *testing.T) {
			f := &fakeTools{refuse: tc.refuse, output: tc.output}
			err := (macCheck{run: f.run}).Check("agenttab")
			if err == nil || !strings.Contains(err.Error(), tc.output) || !strings.HasPrefix(err.Error(), tc.refuse+" ") {
				t.Fatalf("got %v, want %s's refusal with its output", err, tc.refuse)
			}
			if len(f.ran) != tc.ran {
				t.Errorf("ran %v", f.ran)
			}
		})
	}
}

// A relative name is checked as an absolute path, so that a file called
// "-v" cannot read as an option.
func TestMacCheckPassesAbsolutePaths(t *testing.T) {
	f := &fakeTools{}
	if err := (macCheck{run: f.run}).Check("-v"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range f.ran {
		if last := cmd[len(cmd)-1]; !filepath.IsAbs(last) {
			t.Errorf("%v: the file is not an absolute path", cmd)
		}
	}
}
