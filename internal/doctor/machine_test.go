package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// machine is a temporary computer: a state directory, one browser profile
// folder (--user-data-dir), an agenttab binary, a machine-wide manifest
// folder and a host that answers status as told.
type machine struct {
	t       *testing.T
	state   statedir.Dir
	udd     string
	self    string
	sysDir  string
	status  protocol.StatusResult
	statErr error
	onPath  map[string]string
	env     map[string]string
}

// newMachine is a healthy machine: what `agenttab install --user-data-dir`
// and a browser that loaded the extension leave behind, a ready host.
func newMachine(t *testing.T) *machine {
	t.Helper()
	root := t.TempDir()
	m := &machine{
		t:      t,
		state:  statedir.Dir(filepath.Join(root, "state")),
		udd:    filepath.Join(root, "profile"),
		self:   filepath.Join(root, "bin", "agenttab"),
		sysDir: filepath.Join(root, "etc"),
		status: protocol.StatusResult{Lifecycle: protocol.LifecycleReady, HostVersion: buildinfo.Version, ExtensionID: extension.ID, ExtensionVersion: extension.Version},
		onPath: map[string]string{"chromium": "/usr/bin/chromium"},
		env:    map[string]string{},
	}
	m.writeFile(m.self, "#!/bin/sh\n", 0o755)
	for _, d := range []string{string(m.state), m.state.Extension()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	m.writeFile(filepath.Join(m.state.Extension(), "manifest.json"), `{"name":"AgentTab"}`, 0o600)
	m.writeFile(m.state.DB(), "", 0o600)
	m.writeFile(m.state.HostLog(), "agenttab host: 2026/01/01 10:00:00.000000 ready: extension x 0.1.0\n", 0o600)
	m.writeManifest(m.manifestPath(), install.ExpectedManifest(m.self))
	m.writePrefs("Default", map[string]any{extension.ID: m.ours(nil)})
	return m
}

func (m *machine) writeFile(path, content string, mode fs.FileMode) {
	m.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		m.t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) manifestPath() string {
	return filepath.Join(m.udd, "NativeMessagingHosts", install.ManifestFile)
}

func (m *machine) writeManifest(path string, man install.Manifest) {
	m.t.Helper()
	b, err := json.Marshal(man)
	if err != nil {
		m.t.Fatal(err)
	}
	m.writeFile(path, string(b), 0o600)
}

// ours is our extension's settings entry as Chromium 156 writes it for
// --load-extension (observed; see extSetting), with changes applied.
func (m *machine) ours(change func(map[string]any)) map[string]any {
	s := map[string]any{
		"location":           8,
		"path":               m.state.Extension(),
		"disable_reasons":    []int{},
		"from_webstore":      false,
		"active_permissions": map[string]any{"api": []any{"debugger", "nativeMessaging", "tabs", map[string]any{"fileSystem": []string{"write"}}}},
	}
	if change != nil {
		change(s)
	}
	return s
}

func (m *machine) writePrefs(profile string, settings map[string]any) {
	m.t.Helper()
	b, err := json.Marshal(map[string]any{"extensions": map[string]any{"settings": settings}})
	if err != nil {
		m.t.Fatal(err)
	}
	m.writeFile(filepath.Join(m.udd, profile, "Preferences"), string(b), 0o600)
	m.writeFile(filepath.Join(m.udd, profile, "Secure Preferences"), `{"protection":{"super_mac":"x"}}`, 0o600)
}

func (m *machine) envFor() Env {
	return Env{
		State:       m.state,
		UserDataDir: m.udd,
		Finder: chromium.Finder{
			Getenv: func(k string) string { return m.env[k] },
			LookPath: func(name string) (string, error) {
				if p, ok := m.onPath[name]; ok {
					return p, nil
				}
				if filepath.IsAbs(name) {
					if _, err := os.Stat(name); err == nil {
						return name, nil
					}
				}
				return "", errors.New("not found")
			},
			Stat: func(string) (fs.FileInfo, error) { return nil, fs.ErrNotExist },
			GOOS: "linux",
		},
		Places:          install.Places,
		SystemManifests: []string{filepath.Join(m.sysDir, install.ManifestFile)},
		Self:            m.self,
		Version:         buildinfo.Version,
		Status: func(context.Context) (protocol.StatusResult, error) {
			return m.status, m.statErr
		},
	}
}

func (m *machine) run() []Finding {
	m.t.Helper()
	return Run(context.Background(), m.envFor())
}

// only returns the findings of one check.
func only(fs []Finding, check string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

// want asserts that check gave exactly one finding with status, whose
// message and fix contain the given texts.
func want(t *testing.T, fs []Finding, check string, status Status, msg, fix string) Finding {
	t.Helper()
	got := only(fs, check)
	if len(got) != 1 {
		t.Fatalf("%s: %d findings, want 1: %+v", check, len(got), got)
	}
	f := got[0]
	if f.Status != status || !strings.Contains(f.Message, msg) || !strings.Contains(f.Fix, fix) {
		t.Fatalf("%s: got %+v\nwant status %s, message containing %q, fix containing %q", check, f, status, msg, fix)
	}
	if f.Status != OK && f.Fix == "" {
		t.Fatalf("%s: a %s finding without a fix: %+v", check, f.Status, f)
	}
	return f
}
