package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/doctor"
	"github.com/agenttab/agenttab/protocol"
)

// doctorRun runs `agenttab doctor --json` for the test's profile and state
// directory and returns its findings and exit code.
func doctorRun(t *testing.T, e *harness.Env) ([]doctor.Finding, int) {
	t.Helper()
	cmd := agenttabCmd(e, "doctor", "--json", "--user-data-dir", e.UserDataDir)
	out, err := cmd.Output()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("agenttab doctor: %v", err)
	}
	var fs []doctor.Finding
	if err := json.Unmarshal(out, &fs); err != nil {
		t.Fatalf("agenttab doctor --json printed %q: %v", out, err)
	}
	return fs, code
}

// finding returns check's one finding (the test fails on none or several).
func finding(t *testing.T, fs []doctor.Finding, check string) doctor.Finding {
	t.Helper()
	var got []doctor.Finding
	for _, f := range fs {
		if f.Check == check {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%s: findings %+v", check, got)
	}
	return got[0]
}

func expectFinding(t *testing.T, fs []doctor.Finding, check string, status doctor.Status, msg, fix string) {
	t.Helper()
	f := finding(t, fs, check)
	if f.Status != status || !strings.Contains(f.Message, msg) || !strings.Contains(f.Fix, fix) {
		t.Fatalf("%s: %+v; want %s, message with %q, fix with %q", check, f, status, msg, fix)
	}
}

// `agenttab doctor` against the real thing: installed but no browser (the
// host not running, the extension in no profile), then Chromium with the
// extension and a second copy of it at another id (Chrome's own
// Preferences, read as Chromium wrote them), then a Pause.
func TestDoctorWithRealBrowserAndHost(t *testing.T) {
	// An old copy of AgentTab loaded without the key: another id, same name.
	copyDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(copyDir, "manifest.json"), []byte(`{"manifest_version":3,"name":"AgentTab","version":"0.0.1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := harness.Start(t, harness.Unlaunched(), harness.WithExtension(copyDir))

	fs, code := doctorRun(t, e)
	if code != 1 {
		t.Errorf("doctor exit code %d with no host, want 1", code)
	}
	expectFinding(t, fs, doctor.CheckBrowser, doctor.OK, "browser: ", "")
	expectFinding(t, fs, doctor.CheckExtension, doctor.Fail, "is not loaded", "click Load unpacked and choose "+e.Installed.ExtensionDir)
	expectFinding(t, fs, doctor.CheckManifest, doctor.OK, "origin "+extension.Origin, "")
	expectFinding(t, fs, doctor.CheckHost, doctor.Fail, "the host is not running", "start Chrome")
	expectFinding(t, fs, doctor.CheckPause, doctor.Warn, "cannot tell", "host finding")

	e.Launch(t)
	// Chrome writes Preferences through a delayed writer (ImportantFileWriter
	// commits some seconds after a change), so wait for it to land.
	e.WaitFor(t, "Chromium to record the extensions in Preferences", 60*time.Second, func() bool {
		fs, _ = doctorRun(t, e)
		return finding(t, fs, doctor.CheckExtension).Status == doctor.OK && finding(t, fs, doctor.CheckNameConflict).Status != doctor.OK
	})
	expectFinding(t, fs, doctor.CheckExtension, doctor.OK, "loaded by --load-extension "+e.Installed.ExtensionDir, "")
	expectFinding(t, fs, doctor.CheckNameConflict, doctor.Warn, "calls itself AgentTab", "click Remove")
	expectFinding(t, fs, doctor.CheckHost, doctor.OK, "lifecycle "+string(protocol.LifecycleReady), "")
	expectFinding(t, fs, doctor.CheckStateFiles, doctor.OK, "private to this user", "")
	expectFinding(t, fs, doctor.CheckPolicy, doctor.OK, "valid", "")
	expectFinding(t, fs, doctor.CheckPause, doctor.OK, "not paused", "")
	expectFinding(t, fs, doctor.CheckAutomation, doctor.OK, "automation through scripting is off", "")
	if _, code := doctorRun(t, e); code != 0 {
		t.Errorf("doctor exit code %d with only warnings, want 0: %+v", code, fs)
	}

	agenttab(t, e, "pause")
	fs, _ = doctorRun(t, e)
	expectFinding(t, fs, doctor.CheckHost, doctor.OK, "lifecycle "+string(protocol.LifecyclePaused), "")
	expectFinding(t, fs, doctor.CheckPause, doctor.Warn, "paused by the user", "agenttab resume")

	// The text form carries the same findings and fixes.
	out, _ := agenttabCmd(e, "doctor", "--user-data-dir", e.UserDataDir).Output()
	if !strings.Contains(string(out), "WARN  pause") || !strings.Contains(string(out), "fix: Run `agenttab resume`") {
		t.Errorf("doctor's text output:\n%s", out)
	}
}
