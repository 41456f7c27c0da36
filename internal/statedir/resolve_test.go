package statedir

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	home := func() (string, error) { return "/home/u", nil }
	noHome := func() (string, error) { return "", errors.New("$HOME is not defined") }
	tests := []struct {
		name    string
		goos    string
		env     map[string]string
		home    func() (string, error)
		want    string
		wantErr string
	}{
		{name: "override wins", goos: "linux", env: map[string]string{EnvStateDir: "/tmp/s/", "XDG_STATE_HOME": "/x"}, home: home, want: "/tmp/s"},
		{name: "override must be absolute", goos: "linux", env: map[string]string{EnvStateDir: "rel/dir"}, home: home, wantErr: "not an absolute path"},
		{name: "linux xdg", goos: "linux", env: map[string]string{"XDG_STATE_HOME": "/xdg"}, home: home, want: filepath.Join("/xdg", "agenttab")},
		{name: "linux relative xdg ignored", goos: "linux", env: map[string]string{"XDG_STATE_HOME": "xdg"}, home: home, want: filepath.Join("/home/u", ".local", "state", "agenttab")},
		{name: "linux default", goos: "linux", home: home, want: filepath.Join("/home/u", ".local", "state", "agenttab")},
		{name: "linux no home", goos: "linux", home: noHome, wantErr: "set AGENTTAB_STATE_DIR"},
		{name: "freebsd follows xdg", goos: "freebsd", home: home, want: filepath.Join("/home/u", ".local", "state", "agenttab")},
		{name: "macos", goos: "darwin", env: map[string]string{"XDG_STATE_HOME": "/xdg"}, home: home, want: filepath.Join("/home/u", "Library", "Application Support", "AgentTab")},
		{name: "windows", goos: "windows", env: map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`}, home: home, want: filepath.Join(`C:\Users\u\AppData\Local`, "AgentTab")},
		{name: "windows without LOCALAPPDATA", goos: "windows", home: home, wantErr: "LOCALAPPDATA is not set"},
		{name: "windows drive override", goos: "windows", env: map[string]string{EnvStateDir: `D:\state`}, home: home, want: filepath.Clean(`D:\state`)},
		{name: "windows relative override", goos: "windows", env: map[string]string{EnvStateDir: `state`}, home: home, wantErr: "not an absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolve(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("resolve() error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("resolve() error = %v", err)
			}
			if got != tt.want {
				t.Errorf("resolve() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestResolveUsesEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvStateDir, dir)
	got, err := Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if got != dir {
		t.Errorf("Resolve() = %q, want %q", got, dir)
	}
}

func TestDirPaths(t *testing.T) {
	d := Dir(filepath.Join("/s"))
	tests := []struct {
		got, want string
	}{
		{d.DB(), filepath.Join("/s", "state.db")},
		{d.Audit(), filepath.Join("/s", "audit.jsonl")},
		{d.Policy(), filepath.Join("/s", "policy.json")},
		{d.Socket(), filepath.Join("/s", "core.sock")},
		{d.Lock(), filepath.Join("/s", "host.lock")},
		{d.HostLog(), filepath.Join("/s", "host.log")},
		{d.Extension(), filepath.Join("/s", "extension")},
		{d.Adapters(), filepath.Join("/s", "adapters")},
		{d.Blobs(), filepath.Join("/s", "blobs")},
		{d.Uploads(), filepath.Join("/s", "uploads")},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
