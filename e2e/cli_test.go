package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// withoutStateDir is the environment minus AGENTTAB_STATE_DIR.
func withoutStateDir() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "AGENTTAB_STATE_DIR=") })
}

// `agenttab status` reports the lifecycle and the tasks of a running host,
// and says why when there is none.
func TestStatusCommand(t *testing.T) {
	e := harness.Start(t, harness.Unlaunched())
	status := func() ([]byte, error) {
		cmd := exec.Command(e.Bin, "status", "--json")
		cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
		return cmd.CombinedOutput()
	}
	out, err := status()
	if err == nil || !strings.Contains(string(out), "not reachable") || !strings.Contains(string(out), "Open Chrome with the AgentTab extension") {
		t.Fatalf("status without a host: err %v, output:\n%s", err, out)
	}

	e.Launch(t)
	s := e.MCP(t)
	ok(t, s, protocol.MethodOpen, map[string]any{"url": "chrome://version"})
	out, err = status()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	var st protocol.StatusResult
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("status --json printed %s: %v", out, err)
	}
	if st.Lifecycle != protocol.LifecycleReady || len(st.Tasks) != 1 || st.Tasks[0].OwnedTabs != 1 || !st.Tasks[0].Attached {
		t.Fatalf("status %+v", st)
	}
	if strings.Contains(string(out), "chrome://version") {
		t.Fatal("status reveals a task's page URL")
	}
}

// The README's run command: `agenttab demo` sets up a scratch profile and
// drives a session through the real MCP path.
func TestDemoCommand(t *testing.T) {
	bin := harness.BuildBinary(t)
	cmd := exec.Command(bin, "demo")
	cmd.Env = withoutStateDir()
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "demo passed") {
		t.Fatalf("agenttab demo: %v\n%s", err, out)
	}
	for _, step := range []string{"browser_open", "browser_snapshot", "browser_act", "browser_tabs", "browser_finish"} {
		if !strings.Contains(string(out), "✓ "+step) {
			t.Errorf("demo output lacks the %s step:\n%s", step, out)
		}
	}
}

// A second host for the same state directory refuses to start and says
// why, while the first keeps serving.
func TestSecondHostRefusesToStart(t *testing.T) {
	e := harness.Start(t)
	cmd := exec.Command(e.Bin, "chrome-extension://"+e.Installed.ExtensionID+"/")
	cmd.Env = append(withoutStateDir(), "AGENTTAB_STATE_DIR="+e.StateDir)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "another AgentTab host") {
		t.Fatalf("second host: err %v, output %q", err, out)
	}
	var st protocol.StatusResult
	if err := e.CoreCall(t.Context(), protocol.MethodStatus, nil, &st); err != nil || st.Lifecycle != protocol.LifecycleReady {
		t.Fatalf("the first host stopped serving: %v %+v", err, st)
	}
}
