package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/google/go-cmp/cmp"
)

const hostPath = "/opt/agenttab/bin/agenttab"

func TestInstallSelectsBrowsers(t *testing.T) {
	const (
		chromeDir   = ".config/google-chrome/NativeMessagingHosts/com.agenttab.host.json"
		chromiumDir = ".config/chromium/NativeMessagingHosts/com.agenttab.host.json"
		edgeDir     = ".config/microsoft-edge/NativeMessagingHosts/com.agenttab.host.json"
		braveDir    = ".config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.agenttab.host.json"
	)
	tests := []struct {
		name     string
		machine  fakeMachine
		browsers []string
		udd      string // relative to home; "" for none
		want     []string
	}{
		{
			name:    "profile directory detects",
			machine: fakeMachine{profiles: []string{".config/chromium"}},
			want:    []string{chromiumDir},
		},
		{
			name:    "binary on PATH detects",
			machine: fakeMachine{onPath: []string{"google-chrome-stable"}},
			want:    []string{chromeDir},
		},
		{
			name:     "all means every detected browser, in table order",
			machine:  fakeMachine{profiles: []string{".config/BraveSoftware/Brave-Browser"}, onPath: []string{"microsoft-edge"}},
			browsers: []string{"all"},
			want:     []string{edgeDir, braveDir},
		},
		{
			name:     "a named browser is written even when not detected, and alone",
			machine:  fakeMachine{profiles: []string{".config/chromium"}},
			browsers: []string{"edge"},
			want:     []string{edgeDir},
		},
		{
			name:     "all plus a named browser",
			machine:  fakeMachine{profiles: []string{".config/chromium"}},
			browsers: []string{"all", "brave"},
			want:     []string{chromiumDir, braveDir},
		},
		{
			name:    "user data dir is the only destination",
			machine: fakeMachine{profiles: []string{".config/chromium", ".config/google-chrome"}},
			udd:     "profiles/test",
			want:    []string{"profiles/test/NativeMessagingHosts/com.agenttab.host.json"},
		},
		{
			name:     "user data dir needs no detected browser",
			browsers: []string{"chromium"},
			udd:      "udd",
			want:     []string{"udd/NativeMessagingHosts/com.agenttab.host.json"},
		},
		{
			name:    "macOS locations",
			machine: fakeMachine{goos: "darwin", profiles: []string{"Library/Application Support/Google/Chrome", "Library/Application Support/Microsoft Edge"}},
			want: []string{
				"Library/Application Support/Google/Chrome/NativeMessagingHosts/com.agenttab.host.json",
				"Library/Application Support/Microsoft Edge/NativeMessagingHosts/com.agenttab.host.json",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, home := tt.machine.system(t)
			state := filepath.Join(home, "state")
			opts := Options{Browsers: tt.browsers, StateDir: state, HostPath: hostPath}
			if tt.udd != "" {
				opts.UserDataDir = filepath.Join(home, tt.udd)
			}
			res, err := sys.install(opts)
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(home, filepath.FromSlash(w)))
			}
			if diff := cmp.Diff(want, res.Manifests); diff != "" {
				t.Errorf("manifests (-want +got):\n%s", diff)
			}
			for _, m := range res.Manifests {
				if _, err := os.Stat(m); err != nil {
					t.Errorf("reported manifest missing: %v", err)
				}
			}
			// Nothing beyond what was reported: count manifests under home.
			var found []string
			filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "com.agenttab.host.json" {
					found = append(found, p)
				}
				return nil
			})
			// WalkDir is lexical; the table order is not.
			sorted := slices.Clone(want)
			slices.Sort(sorted)
			if diff := cmp.Diff(sorted, found); diff != "" {
				t.Errorf("manifests on disk (-want +got):\n%s", diff)
			}
			wantRes := Result{ExtensionDir: filepath.Join(state, "extension"), ExtensionID: extension.ID, Manifests: want}
			if diff := cmp.Diff(wantRes, res); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInstallRefuses(t *testing.T) {
	tests := []struct {
		name    string
		machine fakeMachine
		opts    Options
		wantErr []string
		is      error
	}{
		{
			name:    "nothing detected and nothing named",
			opts:    Options{HostPath: hostPath},
			wantErr: []string{"no supported browser found", "chrome (", "chromium (", "edge (", "brave (", "google-chrome or google-chrome-stable on PATH", "--browser", "--user-data-dir"},
			is:      ErrNoBrowser,
		},
		{
			name:    "relative host path",
			machine: fakeMachine{profiles: []string{".config/chromium"}},
			opts:    Options{HostPath: "bin/agenttab"},
			wantErr: []string{`host path "bin/agenttab" is not absolute`},
		},
		{
			name:    "unknown browser",
			opts:    Options{HostPath: hostPath, Browsers: []string{"firefox"}},
			wantErr: []string{`unknown browser "firefox"`, "chrome, chromium, edge, brave, or all"},
		},
		{
			name:    "windows: nothing detected and nothing named",
			machine: fakeMachine{goos: "windows"},
			opts:    Options{HostPath: hostPath},
			wantErr: []string{"no supported browser found", filepath.Join("AppData", "Local", "Google", "Chrome", "User Data"), "--browser"},
			is:      ErrNoBrowser,
		},
		{
			name:    "windows: --user-data-dir",
			machine: fakeMachine{goos: "windows", profiles: []string{"AppData/Local/Chromium/User Data"}},
			opts:    Options{HostPath: hostPath, UserDataDir: "/tmp/profile"},
			wantErr: []string{"--user-data-dir does not apply on Windows", "registry"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, home := tt.machine.system(t)
			state := filepath.Join(home, "state")
			opts := tt.opts
			opts.StateDir = state
			_, err := sys.install(opts)
			if err == nil {
				t.Fatal("install succeeded, want an error")
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			// A refused install writes nothing at all.
			if _, err := os.Stat(state); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("state directory exists after a refused install: %v", err)
			}
		})
	}
}

func TestInstallNeedsStateDir(t *testing.T) {
	sys, _ := fakeMachine{profiles: []string{".config/chromium"}}.system(t)
	if _, err := sys.install(Options{HostPath: hostPath}); err == nil || !strings.Contains(err.Error(), "no state directory") {
		t.Fatalf("install without a state dir: %v", err)
	}
}

func TestManifestContent(t *testing.T) {
	sys, home := fakeMachine{}.system(t)
	res, err := sys.install(Options{Browsers: []string{"chromium"}, StateDir: filepath.Join(home, "state"), HostPath: hostPath})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(res.Manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "name": "com.agenttab.host",
  "description": "AgentTab host",
  "path": "/opt/agenttab/bin/agenttab",
  "type": "stdio",
  "allowed_origins": [
    "chrome-extension://` + extension.ID + `/"
  ]
}
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	var m struct {
		AllowedOrigins []string `json:"allowed_origins"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{extension.Origin}, m.AllowedOrigins); diff != "" {
		t.Errorf("allowed_origins must be exactly the extension's origin (-want +got):\n%s", diff)
	}
	if strings.Contains(string(data), "*") {
		t.Errorf("manifest contains a wildcard:\n%s", data)
	}
	info, err := os.Stat(res.Manifests[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Errorf("manifest mode = %v, want 0600", got)
	}
}
