//go:build unix

package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEnsureCreatesOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	assertMode(t, dir, 0o700)
	// A second call on the existing directory is a no-op.
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	assertMode(t, dir, 0o700)
}

func TestEnsureNarrowsExisting(t *testing.T) {
	for _, mode := range []fs.FileMode{0o755, 0o777, 0o711, 0o500} {
		dir := filepath.Join(t.TempDir(), "state")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := Ensure(dir); err != nil {
			t.Fatalf("mode %o: %v", mode, err)
		}
		assertMode(t, dir, 0o700)
	}
}

func TestEnsureRefusesFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Ensure(p); err == nil {
		t.Fatal("Ensure on a regular file succeeded")
	}
}

// fakeInfo is an fs.FileInfo whose owner the test chooses.
type fakeInfo struct{ sys any }

func (fakeInfo) Name() string       { return "state" }
func (fakeInfo) Size() int64        { return 0 }
func (fakeInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o700 }
func (fakeInfo) ModTime() time.Time { return time.Time{} }
func (fakeInfo) IsDir() bool        { return true }
func (f fakeInfo) Sys() any         { return f.sys }

func TestCheckOwner(t *testing.T) {
	tests := []struct {
		name string
		info fs.FileInfo
		uid  int
		want *OwnerError
		fail bool
	}{
		{name: "ours", info: fakeInfo{&syscall.Stat_t{Uid: 1000}}, uid: 1000},
		{name: "another user", info: fakeInfo{&syscall.Stat_t{Uid: 0}}, uid: 1000, want: &OwnerError{Dir: "/s", OwnerUID: 0, UID: 1000}},
		{name: "root refuses a user's directory", info: fakeInfo{&syscall.Stat_t{Uid: 1000}}, uid: 0, want: &OwnerError{Dir: "/s", OwnerUID: 1000, UID: 0}},
		{name: "owner unreadable", info: fakeInfo{nil}, uid: 1000, fail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkOwner("/s", tt.info, tt.uid)
			if tt.fail {
				if err == nil {
					t.Fatal("checkOwner succeeded")
				}
				return
			}
			var got *OwnerError
			if !errors.As(err, &got) {
				got = nil
				if err != nil {
					t.Fatalf("checkOwner() = %v, want *OwnerError or nil", err)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("checkOwner() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnsureRefusesForeignOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to chown a directory to another user; TestCheckOwner covers the rule")
	}
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	var oe *OwnerError
	if err := Ensure(dir); !errors.As(err, &oe) {
		t.Fatalf("Ensure() = %v, want *OwnerError", err)
	}
	// Refused before any change: the mode is untouched.
	assertMode(t, dir, 0o755)
}

func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s mode = %o, want %o", path, got, want)
	}
}
