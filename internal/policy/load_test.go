package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func writePolicy(t *testing.T, content string, mode fs.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	// Chmod after writing so the umask cannot hide a group-writable mode.
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadMissingGivesDefaults(t *testing.T) {
	got, err := Load(filepath.Join(t.TempDir(), "policy.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Default(), got); diff != "" {
		t.Errorf("Load() mismatch (-want +got):\n%s", diff)
	}
}

func TestLoad(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("permission bits are not checked on Windows")
	}
	tests := []struct {
		name    string
		content string
		mode    fs.FileMode
		want    Policy
		problem string
	}{
		{name: "owner-only", content: `{"audit":{"enabled":false}}`, mode: 0o600, want: policyWith(false, false)},
		{name: "world-readable is fine", content: `{"developer_mode":{"enabled":true}}`, mode: 0o644, want: policyWith(true, true)},
		{name: "read-only", content: `{}`, mode: 0o400, want: policyWith(true, false)},
		{name: "group-writable", content: `{}`, mode: 0o620, problem: "its mode 0620 lets group or others write it; run: chmod 600 "},
		{name: "world-writable", content: `{}`, mode: 0o606, problem: "its mode 0606 lets group or others write it"},
		{name: "everyone", content: `{}`, mode: 0o777, problem: "chmod 600"},
		{name: "bad content", content: `{"audit":{"foo":true}}`, mode: 0o600, problem: `unknown policy key "audit.foo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writePolicy(t, tt.content, tt.mode)
			got, err := Load(path)
			if tt.problem == "" {
				if err != nil {
					t.Fatalf("Load() error = %v", err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Load() mismatch (-want +got):\n%s", diff)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Load() = %v, want *Error", err)
			}
			if pe.Path != path || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file %s", err, path)
			}
			if !strings.Contains(pe.Problem, tt.problem) {
				t.Errorf("Problem = %q, want it to contain %q", pe.Problem, tt.problem)
			}
		})
	}
}

func TestLoadRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Load(dir)
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Problem, "not a regular file") {
		t.Fatalf("Load(dir) = %v, want a not-a-regular-file refusal", err)
	}
}

func TestLoadRefusesHugeFile(t *testing.T) {
	path := writePolicy(t, "{}"+strings.Repeat(" ", maxFileSize), 0o600)
	_, err := Load(path)
	var pe *Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Problem, "larger than") {
		t.Fatalf("Load() = %v, want a size refusal", err)
	}
}

// fakeInfo is an fs.FileInfo with a chosen mode, for the platform rules.
type fakeInfo struct{ mode fs.FileMode }

func (fakeInfo) Name() string        { return "policy.json" }
func (fakeInfo) Size() int64         { return 2 }
func (f fakeInfo) Mode() fs.FileMode { return f.mode }
func (fakeInfo) ModTime() time.Time  { return time.Time{} }
func (f fakeInfo) IsDir() bool       { return f.mode.IsDir() }
func (fakeInfo) Sys() any            { return nil }

func TestCheckFile(t *testing.T) {
	tests := []struct {
		name string
		mode fs.FileMode
		goos string
		want string
	}{
		{"unix owner-only", 0o600, "linux", ""},
		{"unix group-writable", 0o660, "darwin", "its mode 0660 lets group or others write it; run: chmod 600 /s/policy.json"},
		{"windows ignores bits", 0o666, "windows", ""},
		{"windows still needs a regular file", fs.ModeDir | 0o700, "windows", "it is not a regular file"},
		{"unix symlink target must be regular", fs.ModeNamedPipe | 0o600, "linux", "it is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkFile("/s/policy.json", fakeInfo{tt.mode}, tt.goos); got != tt.want {
				t.Errorf("checkFile() = %q, want %q", got, tt.want)
			}
		})
	}
}
