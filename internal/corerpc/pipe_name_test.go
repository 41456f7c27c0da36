package corerpc

import (
	"regexp"
	"testing"
)

func TestPipeNamePerStateDir(t *testing.T) {
	a, b := PipeName(`C:\Users\a\AppData\Local\AgentTab\core.sock`), PipeName(`C:\Users\b\AppData\Local\AgentTab\core.sock`)
	if a == b {
		t.Fatal("two state directories share a pipe name")
	}
	if PipeName(`C:\X\core.sock`) != PipeName(`c:\x\core.sock`) {
		t.Fatal("pipe name depends on path case, which Windows ignores")
	}
}

func TestSecurityDescriptorAdmitsOnlyTheUser(t *testing.T) {
	if got, want := securityDescriptor("S-1-5-21-1"), "D:P(A;;GA;;;S-1-5-21-1)"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// Windows pipe names live under \\.\pipe\; ours carries 16 hex digits of
// the path's SHA-256, so it is stable for one state directory.
func TestPipeNameForm(t *testing.T) {
	got := PipeName(`C:\Users\a\AppData\Local\AgentTab\core.sock`)
	if !regexp.MustCompile(`^\\\\\.\\pipe\\agenttab-[0-9a-f]{16}$`).MatchString(got) {
		t.Errorf("pipe name %q", got)
	}
	if got != PipeName(`C:\Users\a\AppData\Local\AgentTab\core.sock`) {
		t.Error("pipe name is not stable")
	}
}
