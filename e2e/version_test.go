package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/extension"
	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/protocol"
)

// Chrome loads the extension with the product version in its own form
// ("2.0.0") and version_name calling it a prerelease; the worker announces
// that version in its hello, and `agenttab status` and `--version` call
// the host's version a prerelease (spec 000: "2.0.0-rc.1 is prerelease and
// unreleased").
func TestVersionIsAPrereleaseEverywhere(t *testing.T) {
	e := harness.Start(t)
	var m struct {
		Version     string `json:"version"`
		VersionName string `json:"version_name"`
	}
	e.Eval(t, `({version: chrome.runtime.getManifest().version, version_name: chrome.runtime.getManifest().version_name})`, &m)
	if m.Version != extension.Version || m.VersionName != buildinfo.Version+" (prerelease)" {
		t.Errorf("Chrome loaded version %q, version_name %q", m.Version, m.VersionName)
	}

	run := func(args ...string) string {
		cmd := exec.Command(e.Bin, args...)
		cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("agenttab %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	var st protocol.StatusResult
	if err := json.Unmarshal([]byte(run("status", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.HostVersion != buildinfo.Version || st.ExtensionVersion != extension.Version {
		t.Errorf("status: host %q, extension %q", st.HostVersion, st.ExtensionVersion)
	}
	if out := run("status"); !strings.Contains(out, "host "+buildinfo.Version+" (prerelease)") {
		t.Errorf("status does not call the host a prerelease:\n%s", out)
	}
	if out := run("--version"); out != "agenttab "+buildinfo.Version+" (prerelease)\n" {
		t.Errorf("--version printed %q", out)
	}
}
