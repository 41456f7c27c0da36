package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 15, spec 000 "Pi": the adapter (adapters/pi) loaded into the real
// Pi from npm lists exactly the ten Standard tools, with the names,
// descriptions and schemas `agenttab mcp` lists; each is called through
// Pi's own tool execution by a scripted model against real Chromium; the
// cards Pi keeps for its UI hold no page title or URL; the resume
// capability is a 0600 file under STATE/adapters/ and in no other file.

const (
	piTitleCanary = "Pi title canary 83d7"
	piURLCanary   = "pi-url-canary-5c1e" // the page's path (scripted-model.ts opens it)
)

// piCounterPage counts clicks of its Count button on the server, so the
// click's effect is seen outside the browser.
func piCounterPage(t *testing.T, e *harness.Env) (base string, clicks *atomic.Int32) {
	t.Helper()
	clicks = new(atomic.Int32)
	html := fmt.Sprintf(`<!doctype html><title>%s</title><h1>%s</h1>
<button onclick="fetch('/clicked', {method: 'POST'}).then(() => { document.getElementById('n').textContent = 'count: ' + (++window.n) })">Count</button>
<p id="n">count: 0</p><script>window.n = 0</script>`, piTitleCanary, piTitleCanary)
	base = e.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/" + piURLCanary:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, html)
		case "/clicked":
			clicks.Add(1)
		default:
			http.NotFound(w, r)
		}
	}))
	return base, clicks
}

func TestPiAdapter(t *testing.T) {
	e := harness.Start(t)
	base, clicks := piCounterPage(t, e)
	d := newPiDirs(t)
	run := runPi(t, e, d, fmt.Sprintf(`{"script":"browse","base":%q}`, base))

	// The tools Pi sent the model: the ten Standard tools, as agenttab mcp lists them.
	mcpSession := e.MCP(t)
	rep := run.report(t)
	checkPiTools(t, rep, mcpSession, protocol.StandardTools)
	// The server instructions are Pi's guideline bullets, each once.
	for para := range strings.SplitSeq(mcpSession.InitializeResult().Instructions, "\n\n") {
		if n := strings.Count(rep.SystemPrompt, strings.TrimSpace(para)); n != 1 {
			t.Errorf("the system prompt holds %d copies of the instructions' paragraph %.60q…, want 1", n, para)
		}
	}

	// Every call, as Pi's events report it.
	ends := run.toolEnds()
	piRan(t, run, ends, "browser_open", "browser_tabs", "browser_snapshot", "browser_act", "browser_wait", "browser_handoff", "browser_handoff", "browser_commit", "browser_credentials", "browser_profile", "browser_act")
	for i, end := range ends {
		switch i {
		case 7: // browser_commit of a stage that does not exist: a refusal reaches the model as an error
			piRefused(t, end, protocol.CodeStageNotFound)
		case 8: // browser_credentials prepare: the default policy's broker, and no op CLI on this machine
			piRefused(t, end, protocol.CodeNeedsUser)
		case 10: // Pi's own schema check refused kind "explode": the adapter never ran
			if !end.IsError || !strings.Contains(end.Text, `Validation failed for tool "browser_act"`) || !strings.Contains(end.Text, "actions") {
				t.Errorf("browser_act with kind explode: isError %v, %q", end.IsError, end.Text)
			}
			if _, has := end.Details["card"]; has {
				t.Errorf("browser_act with kind explode reached the adapter: %v", end.Details)
			}
		default:
			if end.IsError {
				t.Errorf("%s (call %d) failed: %s", end.Name, i, end.Text)
			}
		}
	}
	// The model read the whole result: the page's title and URL are in
	// what browser_open answered; the click's receipt is in act's.
	if !strings.Contains(ends[0].Text, piTitleCanary) || !strings.Contains(ends[0].Text, base+"/"+piURLCanary) {
		t.Errorf("browser_open's result as the model read it lacks the page's title or URL: %s", ends[0].Text)
	}
	if !strings.Contains(ends[3].Text, `"outcome":"dispatched"`) && !strings.Contains(ends[3].Text, `"outcome":"confirmed"`) {
		t.Errorf("browser_act's receipt: %s", ends[3].Text)
	}
	if n := clicks.Load(); n != 1 {
		t.Errorf("the page counted %d clicks, want 1", n)
	}
	if !strings.Contains(ends[6].Text, `"state":"dismissed"`) {
		t.Errorf("handoff dismiss: %s", ends[6].Text)
	}

	// The cards: counts and identifiers, never a title or URL.
	canaries := []string{piTitleCanary, piURLCanary, strings.TrimPrefix(base, "http://")}
	for i, end := range ends {
		if i == 10 {
			continue
		}
		raw, _ := json.Marshal(end.Details)
		if _, has := end.Details["card"].(map[string]any); !has {
			t.Errorf("%s (call %d): no card in details %s", end.Name, i, raw)
		}
		for _, c := range canaries {
			if bytes.Contains(raw, []byte(c)) {
				t.Errorf("%s's card holds %q: %s", end.Name, c, raw)
			}
		}
	}
	piSessionCardsClean(t, d, canaries, len(ends))
	piRowsShowCards(t, run, canaries, len(ends))
	capability := piCapabilityPrivate(t, e, d, run)

	// A second Pi run continues the session: the adapter takes the same
	// capability back, so its task is the same (it lists the tab the first
	// run opened), and finishes it.
	again := runPi(t, e, d, `{"script":"finish"}`, "--continue")
	ends2 := again.toolEnds()
	piRan(t, again, ends2, "browser_tabs", "browser_finish")
	if handle := piHandle(t, ends[0].Text); !strings.Contains(ends2[0].Text, `"tab":"`+handle+`"`) {
		t.Errorf("the continued run's task does not list %s, the tab the first run opened: %s", handle, ends2[0].Text)
	}
	for _, end := range ends2 {
		if end.IsError {
			t.Errorf("%s in the continued run failed: %s", end.Name, end.Text)
		}
	}
	piNowhere(t, e, d, again, capability, "")
}

// piRan checks Pi ran exactly these tools, in this order.
func piRan(t *testing.T, run piRun, ends []piToolEnd, want ...string) {
	t.Helper()
	var names []string
	for _, end := range ends {
		names = append(names, end.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("pi ran %v, want %v\n%s", names, want, tailBytes(run.stdout, 3000))
	}
}

// piHandle is the tab handle of a browser_open result's text.
func piHandle(t *testing.T, text string) string {
	t.Helper()
	var res struct {
		Tab struct {
			Tab string `json:"tab"`
		} `json:"tab"`
	}
	if err := json.Unmarshal([]byte(text), &res); err != nil || !strings.HasPrefix(res.Tab.Tab, "tab_") {
		t.Fatalf("no tab handle in browser_open's result %q (%v)", text, err)
	}
	return res.Tab.Tab
}

// piRowsShowCards draws each call as Pi's TUI does: collapsed, the tool's
// title and one card row; expanded, the card's lines; never a title or URL
// of the page, though the model read them.
func piRowsShowCards(t *testing.T, run piRun, canaries []string, calls int) {
	t.Helper()
	rows := run.renderRows(t)
	if len(rows) != calls {
		t.Fatalf("rendered %d rows, want %d", len(rows), calls)
	}
	for i, row := range rows {
		if len(row.Collapsed) != 2 {
			t.Errorf("%s (call %d) collapsed is %d lines, want the title and one card row: %q", row.Name, i, len(row.Collapsed), row.Collapsed)
		}
		if len(row.Expanded) < len(row.Collapsed) {
			t.Errorf("%s (call %d) expanded shows less than collapsed: %q", row.Name, i, row.Expanded)
		}
		for _, c := range canaries {
			for _, line := range slices.Concat(row.Collapsed, row.Expanded) {
				if strings.Contains(line, c) {
					t.Errorf("%s (call %d): Pi drew %q", row.Name, i, line)
				}
			}
		}
	}
	t.Logf("browser_open collapsed: %q; expanded: %q", rows[0].Collapsed, rows[0].Expanded)
	t.Logf("browser_commit (refused) collapsed: %q", rows[7].Collapsed)
}

// piRefused checks a call the host refused reached the model as an error
// with its code and recovery text.
func piRefused(t *testing.T, end piToolEnd, code protocol.ErrorCode) {
	t.Helper()
	if !end.IsError || !strings.HasPrefix(end.Text, string(code)+": ") || !strings.Contains(end.Text, "\nRecovery: ") || !strings.Contains(end.Text, "\nOutcome: not_started") {
		t.Errorf("%s: isError %v, want %s with recovery and not_started: %q", end.Name, end.IsError, code, end.Text)
	}
	if failed, _ := end.Details["failed"].(bool); !failed {
		t.Errorf("%s's card does not say it failed: %v", end.Name, end.Details)
	}
}

// checkPiTools compares the tools Pi sent the model with agenttab mcp's
// tools/list: the same names (exactly want), descriptions and input schemas.
func checkPiTools(t *testing.T, rep piReport, s *mcp.ClientSession, want []string) {
	t.Helper()
	var names []string
	for _, tool := range rep.Tools {
		names = append(names, tool.Name)
	}
	if !sameSet(names, want) {
		t.Fatalf("pi lists %v, want exactly %v", names, want)
	}
	listed, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range rep.Tools {
		i := slices.IndexFunc(listed.Tools, func(m *mcp.Tool) bool { return m.Name == tool.Name })
		if i < 0 {
			t.Errorf("pi lists %s, agenttab mcp does not", tool.Name)
			continue
		}
		m := listed.Tools[i]
		if tool.Description != m.Description {
			t.Errorf("%s: pi's description differs from agenttab mcp's", tool.Name)
		}
		mcpSchema, _ := json.Marshal(m.InputSchema)
		if !jsonEqual(t, tool.Parameters, mcpSchema) {
			t.Errorf("%s: pi's parameters\n%s\ndiffer from agenttab mcp's input schema\n%s", tool.Name, tool.Parameters, mcpSchema)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	nx, _ := json.Marshal(x)
	ny, _ := json.Marshal(y)
	return bytes.Equal(nx, ny)
}

// piSessionCardsClean checks what Pi's session file keeps for its UI (each
// tool result's details) holds no canary.
func piSessionCardsClean(t *testing.T, d piDirs, canaries []string, calls int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(d.sessions, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("pi's session dir holds %v, want one session file", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	results := 0
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		var entry struct {
			Message struct {
				Role    string          `json:"role"`
				Details json.RawMessage `json:"details"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &entry) != nil || entry.Message.Role != "toolResult" {
			continue
		}
		results++
		for _, c := range canaries {
			if bytes.Contains(entry.Message.Details, []byte(c)) {
				t.Errorf("a card in pi's session file holds %q: %s", c, entry.Message.Details)
			}
		}
	}
	if results != calls {
		t.Errorf("pi's session file holds %d tool results, want %d", results, calls)
	}
}

// piCapabilityPrivate checks the adapter's resume capability: one 0600
// file in the 0700 STATE/adapters/, its value in no other file of the
// state directory (host.log, audit, database), of Pi's directories
// (session, agent, HOME, working directory) or of Pi's output.
func piCapabilityPrivate(t *testing.T, e *harness.Env, d piDirs, run piRun) string {
	t.Helper()
	dir := filepath.Join(e.StateDir, "adapters")
	caps, _ := filepath.Glob(filepath.Join(dir, "pi-*.capability"))
	if len(caps) != 1 {
		t.Fatalf("STATE/adapters holds capability files %v, want one pi-N.capability", caps)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("STATE/adapters: %v (%v), want 0700", st.Mode(), err)
	}
	st, err := os.Stat(caps[0])
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v (%v), want 0600", caps[0], st.Mode(), err)
	}
	raw, err := os.ReadFile(caps[0])
	if err != nil {
		t.Fatal(err)
	}
	value := strings.TrimSpace(string(raw))
	if len(value) < 16 {
		t.Fatalf("%s holds %q, not a capability", caps[0], value)
	}
	piNowhere(t, e, d, run, value, caps[0])
	return value
}

// piNowhere checks value is in no file under the state directory but
// except, none of Pi's directories, and not in Pi's output.
func piNowhere(t *testing.T, e *harness.Env, d piDirs, run piRun, value, except string) {
	t.Helper()
	if bytes.Contains(run.stdout, []byte(value)) || bytes.Contains(run.stderr, []byte(value)) {
		t.Error("pi's output holds the capability")
	}
	for _, root := range []string{e.StateDir, d.root} {
		filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() || path == except || de.Type()&fs.ModeSocket != 0 {
				return nil
			}
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(value)) {
				t.Errorf("%s holds the capability", path)
			}
			return nil
		})
	}
}

// Developer mode on in the user's policy: Pi lists browser_developer too,
// from the first turn.
func TestPiAdapterDeveloperMode(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"developer_mode":{"enabled":true}}`))
	run := runPi(t, e, newPiDirs(t), `{"script":"list"}`)
	checkPiTools(t, run.report(t), e.MCP(t), append(slices.Clone(protocol.StandardTools), protocol.MethodDeveloper))
}
