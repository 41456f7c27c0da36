package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// ok calls a tool that must succeed.
func ok(t testing.TB, s *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, isErr := harness.CallTool(t, s, tool, args)
	if isErr {
		t.Fatalf("%s %v failed: %v", tool, args, res)
	}
	return res
}

// refused calls a tool that must fail with code, and checks the failure is
// a well-formed AgentTab error.
func refused(t testing.TB, s *mcp.ClientSession, tool string, args map[string]any, code protocol.ErrorCode) map[string]any {
	t.Helper()
	res, isErr := harness.CallTool(t, s, tool, args)
	if !isErr {
		t.Fatalf("%s %v succeeded, want %s: %v", tool, args, code, res)
	}
	if res["code"] != string(code) {
		t.Fatalf("%s %v: code %v, want %s (%v)", tool, args, res["code"], code, res)
	}
	if r, _ := res["recovery"].(string); r == "" {
		t.Fatalf("%s: failure without recovery text: %v", tool, res)
	}
	return res
}

// tabOf returns the opened tab object of a browser_open result.
func tabOf(t testing.TB, openResult map[string]any) map[string]any {
	t.Helper()
	tab, _ := openResult["tab"].(map[string]any)
	if tab == nil {
		t.Fatalf("browser_open result has no tab: %v", openResult)
	}
	return tab
}

func handleOf(t testing.TB, openResult map[string]any) string {
	t.Helper()
	h, _ := tabOf(t, openResult)["tab"].(string)
	if h == "" {
		t.Fatalf("no tab handle in %v", openResult)
	}
	return h
}

func taskOf(t testing.TB, result map[string]any) map[string]any {
	t.Helper()
	task, _ := result["task"].(map[string]any)
	if task == nil {
		t.Fatalf("no task in %v", result)
	}
	return task
}

func listed(t testing.TB, tabsResult map[string]any) []map[string]any {
	t.Helper()
	raw, _ := tabsResult["tabs"].([]any)
	var out []map[string]any
	for _, r := range raw {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

// chromeTabByURL finds the one tab Chrome has at url (committed or pending).
func chromeTabByURL(t testing.TB, e *harness.Env, url string) harness.Tab {
	t.Helper()
	var found []harness.Tab
	for _, tab := range e.ChromeTabs(t) {
		if tab.URL == url || tab.PendingURL == url {
			found = append(found, tab)
		}
	}
	if len(found) != 1 {
		t.Fatalf("Chrome has %d tabs at %s, want 1: %+v", len(found), url, e.ChromeTabs(t))
	}
	return found[0]
}

func groupByID(t testing.TB, e *harness.Env, id int) (harness.Group, bool) {
	t.Helper()
	for _, g := range e.ChromeGroups(t) {
		if g.ID == id {
			return g, true
		}
	}
	return harness.Group{}, false
}

func page(title string) string {
	return fmt.Sprintf("<!doctype html><title>%s</title><h1>%s</h1><p>served by the e2e test</p>", title, title)
}

// noSecretInState fails the test when a file under the state directory
// (audit log, host log, database with its WAL, blobs), other than except,
// holds one of the secrets.
func noSecretInState(t testing.TB, e *harness.Env, except string, secrets ...string) {
	t.Helper()
	filepath.WalkDir(e.StateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == except || d.Type()&fs.ModeSocket != 0 {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, secret := range secrets {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s holds a secret", path)
			}
		}
		return nil
	})
}
