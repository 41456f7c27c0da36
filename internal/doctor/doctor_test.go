package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/chromium"
	"github.com/agenttab/agenttab/internal/install"
	"github.com/agenttab/agenttab/protocol"
)

// A healthy machine: every check ok, in Checks' order.
func TestHealthyMachine(t *testing.T) {
	fs := newMachine(t).run()
	var order []string
	for _, f := range fs {
		if f.Status != OK {
			t.Errorf("healthy machine: %+v", f)
		}
		if len(order) == 0 || order[len(order)-1] != f.Check {
			order = append(order, f.Check)
		}
	}
	if !slices.Equal(order, Checks) {
		t.Errorf("checks ran in order %v, want %v", order, Checks)
	}
	if Failed(fs) {
		t.Error("Failed on a healthy machine")
	}
}

func TestBrowser(t *testing.T) {
	m := newMachine(t)
	m.onPath = nil
	want(t, m.run(), CheckBrowser, Fail, "no Chromium-family browser found", "apt-get install -y chromium")

	m.env[chromium.EnvBrowser] = "/nowhere/chrome"
	want(t, m.run(), CheckBrowser, Fail, "/nowhere/chrome", "Point AGENTTAB_BROWSER at a browser executable")

	m.env[chromium.EnvBrowser] = m.self // any existing file stands in for a browser
	want(t, m.run(), CheckBrowser, OK, m.self, "")
}

func TestExtension(t *testing.T) {
	m := newMachine(t)
	want(t, m.run(), CheckExtension, OK, "loaded by --load-extension", "")

	m.writePrefs("Default", map[string]any{extension.ID: m.ours(func(s map[string]any) { s["disable_reasons"] = []int{1} })})
	want(t, m.run(), CheckExtension, Fail, "disabled (switched off by the user)", "switch AgentTab on")

	// Chrome before the list form: a bitmask and "state": 0.
	m.writePrefs("Default", map[string]any{extension.ID: m.ours(func(s map[string]any) { s["disable_reasons"] = 4; s["state"] = 0 })})
	want(t, m.run(), CheckExtension, Fail, "waiting for the user to accept new permissions", "switch AgentTab on")

	m.writePrefs("Default", map[string]any{})
	f := want(t, m.run(), CheckExtension, Fail, "is not loaded", "click Load unpacked and choose "+m.state.Extension())
	if strings.Contains(f.Fix, "agenttab install") {
		t.Errorf("the extension folder exists, yet the fix asks for an install: %s", f.Fix)
	}
	os.RemoveAll(m.state.Extension())
	want(t, m.run(), CheckExtension, Fail, "is not loaded", "Run `agenttab install`, then open chrome://extensions")

	os.RemoveAll(m.udd)
	want(t, m.run(), CheckExtension, Fail, "no browser profile was found", "Load unpacked")
}

func TestExtensionFromAnotherFolder(t *testing.T) {
	m := newMachine(t)
	other := filepath.Join(t.TempDir(), "old-agenttab")
	m.writeFile(filepath.Join(other, "manifest.json"), `{"name":"AgentTab"}`, 0o600)
	m.writePrefs("Default", map[string]any{extension.ID: m.ours(func(s map[string]any) { s["path"] = other; s["location"] = 4 })})
	want(t, m.run(), CheckExtension, Warn, "loaded unpacked from "+other, "click Remove on AgentTab's card")

	os.RemoveAll(other)
	want(t, m.run(), CheckExtension, Fail, "has no manifest.json any more", "click Remove on AgentTab's card")
}

// The "two apps fight over one extension" complaint: an old copy loaded
// without the key (another id) that calls itself AgentTab, or any
// extension whose code connects to our host name.
func TestExtensionAtAnotherID(t *testing.T) {
	m := newMachine(t)
	copyDir := filepath.Join(t.TempDir(), "copy")
	m.writeFile(filepath.Join(copyDir, "manifest.json"), `{"name":"AgentTab"}`, 0o600)
	other := "abcdefghijklmnopabcdefghijklmnop"
	m.writePrefs("Profile 1", map[string]any{other: map[string]any{"location": 4, "path": copyDir, "disable_reasons": []int{}}})
	f := want(t, m.run(), CheckNameConflict, Warn, "extension "+other, "chrome://extensions/?id="+other)
	if !strings.Contains(f.Message, "calls itself AgentTab") {
		t.Errorf("message: %s", f.Message)
	}

	m.writeFile(filepath.Join(copyDir, "manifest.json"), `{"name":"Helper"}`, 0o600)
	m.writeFile(filepath.Join(copyDir, "js", "bg.js"), `chrome.runtime.connectNative("`+protocol.NativeHostName+`")`, 0o600)
	want(t, m.run(), CheckNameConflict, Warn, "connects to the native host "+protocol.NativeHostName, "click Remove")

	m.writeFile(filepath.Join(copyDir, "js", "bg.js"), `chrome.runtime.connectNative("com.example.other")`, 0o600)
	want(t, m.run(), CheckNameConflict, OK, "no other", "")
}

func TestManifest(t *testing.T) {
	installFix := "install --user-data-dir "
	for _, tc := range []struct {
		name   string
		break_ func(m *machine)
		status Status
		msg    string
	}{
		{"missing", func(m *machine) { os.Remove(m.manifestPath()) }, Fail, "no host manifest at"},
		{"not JSON", func(m *machine) { m.writeFile(m.manifestPath(), "{", 0o600) }, Fail, "not JSON"},
		{"wrong origin", func(m *machine) {
			man := install.ExpectedManifest(m.self)
			man.AllowedOrigins = []string{"chrome-extension://abcdefghijklmnopabcdefghijklmnop/"}
			m.writeManifest(m.manifestPath(), man)
		}, Fail, "allowed_origins"},
		{"a wildcard beside ours", func(m *machine) {
			man := install.ExpectedManifest(m.self)
			man.AllowedOrigins = append(man.AllowedOrigins, "chrome-extension://*/")
			m.writeManifest(m.manifestPath(), man)
		}, Fail, "not exactly"},
		{"wrong type", func(m *machine) {
			man := install.ExpectedManifest(m.self)
			man.Type = "socket"
			m.writeManifest(m.manifestPath(), man)
		}, Fail, `type is "socket"`},
		{"relative path", func(m *machine) { m.writeManifest(m.manifestPath(), install.ExpectedManifest("bin/agenttab")) }, Fail, "not absolute"},
		{"missing binary", func(m *machine) { os.Remove(m.self) }, Fail, "does not exist"},
		{"not executable", func(m *machine) { os.Chmod(m.self, 0o644) }, Fail, "is not executable (mode 0644)"},
		{"another agenttab", func(m *machine) {
			other := filepath.Join(t.TempDir(), "agenttab")
			m.writeFile(other, "#!/bin/sh\n", 0o755)
			m.writeManifest(m.manifestPath(), install.ExpectedManifest(other))
		}, Warn, "not this agenttab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMachine(t)
			tc.break_(m)
			want(t, m.run(), CheckManifest, tc.status, tc.msg, installFix+m.udd)
		})
	}
}

// Without --user-data-dir, every detected browser's per-user location is
// checked; two of them starting different binaries is a conflict.
func TestManifestsPerBrowser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PATH", t.TempDir()) // no browser binary: detection is by profile folder
	m := newMachine(t)
	m.udd = ""
	for _, p := range []string{".config/chromium", ".config/google-chrome"} {
		if err := os.MkdirAll(filepath.Join(home, p), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	fs := m.run()
	got := only(fs, CheckManifest)
	if len(got) != 2 || got[0].Status != Fail || !strings.Contains(got[0].Fix, "install --browser chrome`") || !strings.Contains(got[1].Fix, "install --browser chromium`") {
		t.Fatalf("manifest findings: %+v", got)
	}
	other := filepath.Join(t.TempDir(), "agenttab")
	m.writeFile(other, "#!/bin/sh\n", 0o755)
	m.writeManifest(filepath.Join(home, ".config/chromium/NativeMessagingHosts", install.ManifestFile), install.ExpectedManifest(m.self))
	m.writeManifest(filepath.Join(home, ".config/google-chrome/NativeMessagingHosts", install.ManifestFile), install.ExpectedManifest(other))
	want(t, m.run(), CheckNameConflict, Fail, "start different binaries", "so every browser starts this agenttab")
}

func TestMachineWideManifest(t *testing.T) {
	m := newMachine(t)
	path := filepath.Join(m.sysDir, install.ManifestFile)
	other := install.ExpectedManifest("/opt/other/agenttab")
	m.writeManifest(path, other)
	want(t, m.run(), CheckNameConflict, Fail, "machine-wide manifest "+path, "sudo rm "+path)

	// The same registration machine-wide is no conflict.
	m.writeManifest(path, install.ExpectedManifest(m.self))
	want(t, m.run(), CheckNameConflict, OK, "no other", "")
}

// Windows: a machine-wide registry key under our name that names another
// manifest, one that would not start this agenttab, is a conflict whose
// fix is the exact elevated `reg delete`; one naming our own manifest, or
// a manifest that starts this agenttab, is none.
func TestMachineWideRegistration(t *testing.T) {
	m := newMachine(t)
	key := `HKLM\Software\WOW6432Node\Google\Chrome\NativeMessagingHosts\` + protocol.NativeHostName
	other := filepath.Join(t.TempDir(), "other.json")
	m.writeManifest(other, install.ExpectedManifest("/opt/other/agenttab"))
	regs := []install.Registration{{Browser: "chrome", Key: key, Manifest: other}}
	env := m.envFor()
	env.MachineRegistrations = func() ([]install.Registration, error) { return regs, nil }
	run := func() []Finding { return Run(context.Background(), env) }
	f := want(t, run(), CheckNameConflict, Fail, "machine-wide registry key "+key, "`reg delete \""+key+"\" /f`")
	if !strings.Contains(f.Message, "it starts /opt/other/agenttab") || !strings.Contains(f.Fix, "elevated prompt") {
		t.Errorf("finding: %+v", f)
	}

	regs[0].Manifest = filepath.Join(t.TempDir(), "gone.json")
	want(t, run(), CheckNameConflict, Fail, "does not exist", "reg delete")

	regs[0].Manifest = filepath.Join(string(m.state), install.ManifestFile)
	want(t, run(), CheckNameConflict, OK, "no other", "")

	m.writeManifest(other, install.ExpectedManifest(m.self))
	regs[0].Manifest = other
	want(t, run(), CheckNameConflict, OK, "no other", "")

	env.MachineRegistrations = func() ([]install.Registration, error) { return nil, errors.New("access denied") }
	want(t, run(), CheckNameConflict, Warn, "access denied", "reg query HKLM")
}

func TestHost(t *testing.T) {
	m := newMachine(t)
	m.statErr = errors.New("dial unix: connect: no such file or directory")
	want(t, m.run(), CheckHost, Fail, "the host is not running", "start Chrome")
	want(t, m.run(), CheckPause, Warn, "cannot tell", "host finding")

	m.statErr = protocol.Fail(protocol.CodeTooManyConnections, "too many")
	f := want(t, m.run(), CheckHost, Fail, "refused doctor's status request", "")
	if f.Fix != protocol.ErrorCatalogue[protocol.CodeTooManyConnections].Recovery {
		t.Errorf("refusal fix %q", f.Fix)
	}

	m.statErr = nil
	m.status.Lifecycle = protocol.LifecycleHandshaking
	want(t, m.run(), CheckHost, Warn, "is handshaking", "run `agenttab doctor` again")

	m.status.Lifecycle = protocol.LifecycleReady
	m.status.HostVersion = "0.0.9"
	want(t, m.run(), CheckHost, Fail, "is version 0.0.9, this agenttab is", "reload button on AgentTab's card")

	m.status.HostVersion = m.envFor().Version
	m.status.ExtensionVersion = "0.0.8"
	want(t, m.run(), CheckHost, Fail, "the extension is version 0.0.8", "`agenttab install`")
}

func TestPause(t *testing.T) {
	m := newMachine(t)
	m.status.Lifecycle, m.status.PauseReason = protocol.LifecyclePaused, protocol.PauseByUser
	want(t, m.run(), CheckPause, Warn, "paused by the user", "agenttab resume")
	m.status.PauseReason = protocol.PauseByDebuggerCancel
	want(t, m.run(), CheckPause, Warn, "Cancel was clicked on Chrome's debugging banner", "Resume agents")
	want(t, m.run(), CheckHost, OK, "paused", "")
}

func TestStateFiles(t *testing.T) {
	m := newMachine(t)
	os.Chmod(string(m.state), 0o755)
	os.Chmod(m.state.DB(), 0o644)
	m.writeFile(filepath.Join(m.state.Adapters(), "pi", "capability"), "x", 0o640)
	got := only(m.run(), CheckStateFiles)
	var fixes []string
	for _, f := range got {
		fixes = append(fixes, f.Fix)
	}
	wantFixes := []string{
		fmt.Sprintf("Run `chmod 700 %s`.", m.state),
		fmt.Sprintf("Run `chmod 600 %s`.", m.state.DB()),
		fmt.Sprintf("Run `chmod 600 %s`.", filepath.Join(m.state.Adapters(), "pi", "capability")),
	}
	if !slices.Equal(fixes, wantFixes) {
		t.Fatalf("fixes %q, want %q", fixes, wantFixes)
	}

	os.RemoveAll(string(m.state))
	want(t, m.run(), CheckStateFiles, Fail, "does not exist", "agenttab install")
}

func TestPolicy(t *testing.T) {
	m := newMachine(t)
	m.writeFile(m.state.Policy(), `{"audit":{"enabled":"yes"}}`, 0o600)
	want(t, m.run(), CheckPolicy, Fail, "audit.enabled", "fix or remove the key audit.enabled")

	m.writeFile(m.state.Policy(), `{}`, 0o666)
	want(t, m.run(), CheckPolicy, Fail, "group or others write", "chmod 600 "+m.state.Policy())
}

func TestAutomation(t *testing.T) {
	m := newMachine(t)
	want(t, m.run(), CheckAutomation, OK, "automation through scripting is off", "")
	m.writePrefs("Default", map[string]any{extension.ID: m.ours(func(s map[string]any) {
		s["active_permissions"] = map[string]any{"api": []string{"debugger", "scripting"}}
	})})
	want(t, m.run(), CheckAutomation, OK, "automation through scripting is on", "")
}

func TestHostLog(t *testing.T) {
	m := newMachine(t)
	var log strings.Builder
	for i := range 8 {
		fmt.Fprintf(&log, "agenttab host: 2026/01/01 10:00:0%d.000000 native link: undecodable message %d\n", i, i)
		fmt.Fprintf(&log, "agenttab host: 2026/01/01 10:00:0%d.000000 task task_1 took tab_2\n", i)
	}
	fmt.Fprintf(&log, "agenttab host: handshake: no hello from the extension within 10s %s\n", strings.Repeat("x", 1000))
	m.writeFile(m.state.HostLog(), log.String(), 0o600)
	f := want(t, m.run(), CheckHostLog, Warn, "recent host errors", "tail -f")
	if n := strings.Count(f.Message, "\n"); n != logErrorMax {
		t.Errorf("%d lines shown, want %d:\n%s", n, logErrorMax, f.Message)
	}
	if strings.Contains(f.Message, "took tab_2") || strings.Contains(f.Message, "message 2") || !strings.Contains(f.Message, "message 7") || strings.Contains(f.Message, strings.Repeat("x", logLineMax)) {
		t.Errorf("message:\n%s", f.Message)
	}
}

// On Windows a browser's place is the manifest its HKCU key names
// (install.Places); a detected browser without a key is unregistered.
func TestManifestUnregisteredOnWindows(t *testing.T) {
	m := newMachine(t)
	m.udd = ""
	env := m.envFor()
	env.Places = func(string) ([]install.Place, error) {
		return []install.Place{{Browser: "edge", UserDataDir: t.TempDir()}}, nil
	}
	want(t, Run(context.Background(), env), CheckManifest, Fail, "edge has no native-host registration", "install --browser edge`")
}
