package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The adapter's capability file: exactly one, owner-only.
func capabilityFile(t *testing.T, e *harness.Env) (string, string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(e.StateDir, "adapters", "mcp-stdio-*.capability"))
	if len(files) != 1 {
		t.Fatalf("adapter capability files: %v, want one", files)
	}
	info, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", files[0], info.Mode().Perm())
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return files[0], strings.TrimSpace(string(b))
}

// The host crashes and Chrome starts a new one: the same MCP session goes
// on with the same task and tabs (the adapter resumes with its capability,
// which is rotated); the replaced capability resumes nothing; no
// capability value is written anywhere but the adapter's own file, nor
// shown in any result.
func TestResumeAcrossHostRestart(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Kept")})
	s := e.MCP(t)
	var outputs []map[string]any
	call := func(tool string, args map[string]any) map[string]any {
		r := ok(t, s, tool, args)
		outputs = append(outputs, r)
		return r
	}
	opened := call(protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab, task := handleOf(t, opened), taskOf(t, opened)["id"]
	ownFile, first := capabilityFile(t, e)

	e.KillHost(t)

	tabs := call(protocol.MethodTabs, nil)
	if taskOf(t, tabs)["id"] != task {
		t.Fatalf("after the host restart the session works on task %v, want %v", taskOf(t, tabs)["id"], task)
	}
	if got := listed(t, tabs); len(got) != 1 || got[0]["tab"] != tab {
		t.Fatalf("after the host restart the task lists %v, want its tab %s", got, tab)
	}
	call(protocol.MethodSnapshot, map[string]any{"tab": tab})
	_, second := capabilityFile(t, e)
	if second == first || len(second) != 43 {
		t.Fatalf("the capability was not rotated on resume")
	}

	// The rotation is confirmed: the first capability is spent; a made-up
	// one resumes nothing either.
	madeUp := "x" + second[1:]
	if madeUp == second {
		madeUp = "y" + second[1:]
	}
	for _, c := range []string{first, madeUp} {
		var r protocol.ResumeResult
		if err := e.CoreCall(context.Background(), protocol.MethodResume, protocol.ResumeParams{Capability: c}, &r); err != nil || r.Resumed {
			t.Errorf("resume with a spent or made-up capability: %+v, %v", r, err)
		}
	}

	raw, _ := json.Marshal(outputs)
	for _, c := range []string{first, second} {
		if strings.Contains(string(raw), c) {
			t.Error("a tool result contains the capability")
		}
	}
	noSecretInState(t, e, ownFile, first, second)

	// A finished task cannot be resumed, so its capability is not kept.
	call(protocol.MethodFinish, nil)
	if _, err := os.Stat(ownFile); !os.IsNotExist(err) {
		t.Errorf("the capability file outlived its task: %v", err)
	}
}

// Two adapters started by one agent process (the same parent) keep tasks
// of their own, even when the second starts after the first did browser
// work: each claims its own capability file.
func TestSiblingAdaptersKeepTheirOwnTasks(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Mine")})
	a := e.MCP(t)
	opened := ok(t, a, protocol.MethodOpen, map[string]any{"url": base + "/"})
	b := e.MCP(t)
	got := ok(t, b, protocol.MethodTabs, nil)
	if taskOf(t, got)["id"] == taskOf(t, opened)["id"] || len(listed(t, got)) != 0 {
		t.Fatalf("the second adapter took over the first one's task: %v", got)
	}
	if still := ok(t, a, protocol.MethodTabs, nil); taskOf(t, still)["id"] != taskOf(t, opened)["id"] {
		t.Errorf("the first adapter lost its task to its sibling: %v", still)
	}
}

// An extension reload (an update) restarts the worker and the host: the
// same MCP session goes on with the same task and the same tabs, which the
// reloaded extension recovers from its storage.local mirror once the
// host's record and Chrome agree.
func TestResumeAcrossExtensionReload(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Survivor")})
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab, task := handleOf(t, opened), taskOf(t, opened)["id"]

	e.ReloadExtension(t)

	tabs := ok(t, s, protocol.MethodTabs, nil)
	if taskOf(t, tabs)["id"] != task {
		t.Fatalf("after the reload the session works on task %v, want %v", taskOf(t, tabs)["id"], task)
	}
	if got := listed(t, tabs); len(got) != 1 || got[0]["tab"] != tab {
		t.Fatalf("after the reload the task lists %v, want its tab %s", got, tab)
	}
	if text, _, _ := snap(t, s, tab, nil); !strings.Contains(text, "Survivor") {
		t.Errorf("the recovered tab's snapshot:\n%s", text)
	}
}
