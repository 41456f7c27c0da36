package chromium

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// fakeMachine is a hand-written machine: executables on PATH, files on disk
// and environment variables.
type fakeMachine struct {
	path  map[string]string // name or explicit path → resolved path
	files map[string]bool
	env   map[string]string
}

func (m fakeMachine) finder(goos string, root bool) Finder {
	return Finder{
		Getenv: func(k string) string { return m.env[k] },
		LookPath: func(name string) (string, error) {
			if p, ok := m.path[name]; ok {
				return p, nil
			}
			return "", errors.New("not found")
		},
		Stat: func(name string) (fs.FileInfo, error) {
			if m.files[name] {
				return fakeFile{}, nil
			}
			return nil, fs.ErrNotExist
		},
		GOOS: goos,
		Root: root,
	}
}

type fakeFile struct{}

func (fakeFile) Name() string       { return "f" }
func (fakeFile) Size() int64        { return 1 }
func (fakeFile) Mode() fs.FileMode  { return 0o755 }
func (fakeFile) ModTime() time.Time { return time.Time{} }
func (fakeFile) IsDir() bool        { return false }
func (fakeFile) Sys() any           { return nil }

func TestFind(t *testing.T) {
	tests := []struct {
		name    string
		m       fakeMachine
		goos    string
		root    bool
		want    string
		wantErr []string // substrings of the error; nil means success
	}{
		{
			name: "chromium preferred over chrome",
			m:    fakeMachine{path: map[string]string{"google-chrome": "/usr/bin/google-chrome", "chromium": "/usr/bin/chromium"}},
			goos: "linux",
			want: "/usr/bin/chromium",
		},
		{
			name: "chromium-browser before google-chrome",
			m:    fakeMachine{path: map[string]string{"google-chrome-stable": "/opt/c", "chromium-browser": "/snap/bin/chromium-browser"}},
			goos: "linux",
			want: "/snap/bin/chromium-browser",
		},
		{
			name: "edge before brave",
			m:    fakeMachine{path: map[string]string{"brave-browser": "/b", "microsoft-edge": "/e"}},
			goos: "linux",
			want: "/e",
		},
		{
			name: "AGENTTAB_BROWSER wins",
			m: fakeMachine{
				path: map[string]string{"chromium": "/usr/bin/chromium", "/opt/my/chrome": "/opt/my/chrome"},
				env:  map[string]string{EnvBrowser: "/opt/my/chrome"},
			},
			goos: "linux",
			want: "/opt/my/chrome",
		},
		{
			name:    "AGENTTAB_BROWSER that does not resolve is an error, not a fallback",
			m:       fakeMachine{path: map[string]string{"chromium": "/usr/bin/chromium"}, env: map[string]string{EnvBrowser: "/nope"}},
			goos:    "linux",
			wantErr: []string{`AGENTTAB_BROWSER="/nope"`},
		},
		{
			name: "macOS app bundle",
			m:    fakeMachine{files: map[string]bool{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome": true, "/Applications/Chromium.app/Contents/MacOS/Chromium": true}},
			goos: "darwin",
			want: "/Applications/Chromium.app/Contents/MacOS/Chromium",
		},
		{
			name:    "app bundles are not looked at on linux",
			m:       fakeMachine{files: map[string]bool{"/Applications/Chromium.app/Contents/MacOS/Chromium": true}},
			goos:    "linux",
			wantErr: []string{"no Chromium-family browser found"},
		},
		{
			name:    "nothing on linux as a user",
			goos:    "linux",
			wantErr: []string{"no Chromium-family browser found", "chromium, chromium-browser, google-chrome, google-chrome-stable, microsoft-edge, brave-browser on PATH", "`sudo apt-get install -y chromium`"},
		},
		{
			name:    "nothing on linux as root",
			goos:    "linux",
			root:    true,
			wantErr: []string{"`apt-get install -y chromium`"},
		},
		{
			name:    "nothing on macOS",
			goos:    "darwin",
			wantErr: []string{"`brew install --cask chromium`", "/Applications/Chromium.app/Contents/MacOS/Chromium"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.m.finder(tt.goos, tt.root).Find()
			if tt.wantErr == nil {
				if err != nil || got != tt.want {
					t.Fatalf("Find() = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("Find() = %q, want an error", got)
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

func TestFindNotFoundWraps(t *testing.T) {
	_, err := fakeMachine{}.finder("linux", false).Find()
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("error %v does not wrap ErrNotFound", err)
	}
	if !strings.Contains(err.Error(), "sudo") {
		t.Fatalf("a non-root hint must use sudo: %v", err)
	}
}

func TestFamilies(t *testing.T) {
	var names []string
	for _, f := range Families() {
		names = append(names, f.Name)
	}
	if got, want := strings.Join(names, ","), "chromium,chrome,edge,brave"; got != want {
		t.Fatalf("Families() order = %s, want %s", got, want)
	}
	copied := Families()
	copied[0].Binaries[0] = "changed"
	if f, _ := FamilyByName("chromium"); f.Binaries[0] != "chromium" {
		t.Fatalf("Families() shares its slices with the package")
	}
	if _, ok := FamilyByName("firefox"); ok {
		t.Fatalf("FamilyByName(firefox) found something")
	}
}
