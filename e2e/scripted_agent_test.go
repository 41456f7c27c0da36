package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The scripted agent (issue 11): task scripts that do what an agent
// following the tool descriptions does (open, read the default snapshot,
// pick refs by role and name, act, wait), written once against
// browserTools so the same scripts run against AgentTab and against
// Playwright MCP, each through its own documented tools.

// browserTools is what a scripted agent asks of a browser MCP server.
type browserTools interface {
	// name is the server's, for reports.
	name() string
	// open loads url (AgentTab: browser_open, a new task tab; Playwright:
	// browser_navigate).
	open(url string) error
	// snapshot reads the page in the server's default mode and returns
	// the text a model reads.
	snapshot() (string, error)
	// run does steps in order, as few calls as the server allows (AgentTab:
	// one browser_act batch; Playwright: a call per step, form fields
	// together), and with after returns a fresh snapshot (AgentTab:
	// snapshot_after; Playwright: browser_snapshot). An error names the
	// step that failed and the server's answer.
	run(steps []agentStep, after bool) (string, error)
	// meter is what the calls cost so far.
	meter() *callMeter
	// closePage drops the page a task used, outside the task's count.
	closePage()
}

// agentStep is one thing an agent does on a page.
type agentStep struct {
	kind  string // click, type (key by key), fill, select, check, press (focused element), drag, wait_text
	ref   string
	toRef string // drag
	text  string // type, fill, wait_text
	keys  string // press
	value string // select
	where string // drag: before, after or "" (the target's centre)
}

func asClick(ref string) agentStep         { return agentStep{kind: "click", ref: ref} }
func asType(ref, text string) agentStep    { return agentStep{kind: "type", ref: ref, text: text} }
func asFill(ref, text string) agentStep    { return agentStep{kind: "fill", ref: ref, text: text} }
func asSelect(ref, value string) agentStep { return agentStep{kind: "select", ref: ref, value: value} }
func asCheck(ref string) agentStep         { return agentStep{kind: "check", ref: ref} }
func asPress(keys string) agentStep        { return agentStep{kind: "press", keys: keys} }
func asWaitText(text string) agentStep     { return agentStep{kind: "wait_text", text: text} }
func asDrag(ref, to, where string) agentStep {
	return agentStep{kind: "drag", ref: ref, toRef: to, where: where}
}
func asNavigate(url string) agentStep { return agentStep{kind: "navigate", text: url} }

func (s agentStep) String() string {
	switch s.kind {
	case "press":
		return "press " + s.keys
	case "wait_text":
		return fmt.Sprintf("wait for text %q", s.text)
	case "navigate":
		return "navigate to " + s.text
	case "drag":
		return fmt.Sprintf("drag %s to %s %s", s.ref, s.where, s.toRef)
	case "type", "fill":
		return fmt.Sprintf("%s %q into %s", s.kind, s.text, s.ref)
	case "select":
		return fmt.Sprintf("select %q in %s", s.value, s.ref)
	}
	return s.kind + " " + s.ref
}

// callMeter counts what a task cost an agent: tool calls, the characters
// of every answer's text content (what enters a model's context), and of
// the snapshots among them.
type callMeter struct {
	calls, chars, snapshotChars int
	elapsed                     time.Duration
}

// toolCall calls a tool and meters it; snapshot says the answer is a
// snapshot read. The text is the answer's text content.
func (m *callMeter) toolCall(s *mcp.ClientSession, name string, args map[string]any, snapshot bool) (*mcp.CallToolResult, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	m.elapsed += time.Since(start)
	m.calls++
	if err != nil {
		return nil, "", fmt.Errorf("calling %s: %w", name, err)
	}
	text := resultText(res)
	m.chars += len([]rune(text))
	if snapshot {
		m.snapshotChars += len([]rune(text))
	}
	return res, text, nil
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// scriptedAgent runs one task script. Its first failure sticks: later
// calls do nothing, and err names the step that failed, so a script reads
// as the list of things an agent does.
type scriptedAgent struct {
	b    browserTools
	base string
	last string // the latest snapshot read
	err  error
}

func (a *scriptedAgent) fail(what string, err error) {
	if a.err == nil {
		a.err = fmt.Errorf("%s: %w", what, err)
	}
}

// open loads a corpus page and reads it.
func (a *scriptedAgent) open(page string) {
	if a.err != nil {
		return
	}
	if err := a.b.open(a.base + "/" + page + ".html"); err != nil {
		a.fail("open "+page, err)
		return
	}
	a.look()
}

// look reads the page again.
func (a *scriptedAgent) look() {
	if a.err != nil {
		return
	}
	text, err := a.b.snapshot()
	if err != nil {
		a.fail("snapshot", err)
		return
	}
	a.last = text
}

// do runs steps; with after, the answer's snapshot becomes the one refs
// are read from.
func (a *scriptedAgent) do(after bool, steps ...agentStep) {
	if a.err != nil {
		return
	}
	text, err := a.b.run(steps, after)
	if err != nil {
		a.fail("act", err)
		return
	}
	if after {
		a.last = text
	}
}

// ref is the ref of the element with role (any when "") and name (or
// text) in the latest snapshot.
func (a *scriptedAgent) ref(role, name string) string {
	return a.lookup(fmt.Sprintf("%s %q", orAny(role), name), findRef(a.last, role, name, false))
}

// refContaining is ref for a name or text that contains part.
func (a *scriptedAgent) refContaining(role, part string) string {
	return a.lookup(fmt.Sprintf("%s containing %q", orAny(role), part), findRef(a.last, role, part, true))
}

// labelled is the ref of the control captioned label (findLabelled).
func (a *scriptedAgent) labelled(label string) string {
	return a.lookup(fmt.Sprintf("the control captioned %q", label), findLabelled(a.last, label))
}

func (a *scriptedAgent) lookup(what, ref string) string {
	if a.err != nil {
		return ""
	}
	if ref == "" {
		a.fail("find "+what, fmt.Errorf("no line with a ref for it in the snapshot:\n%s", clipped(a.last, 3000)))
	}
	return ref
}

// read is the first submatch of pattern in the latest snapshot: what an
// agent reads off the page. When the snapshot says its mode clipped long
// texts and how to read them whole, the agent does that first.
func (a *scriptedAgent) read(what, pattern string) string {
	if a.err != nil {
		return ""
	}
	re := regexp.MustCompile(pattern)
	m := re.FindStringSubmatch(a.last)
	if r, ok := a.b.(clippedReader); m == nil && ok && r.clipped(a.last) {
		text, err := r.readClipped()
		if err != nil {
			a.fail("read "+what+" whole", err)
			return ""
		}
		m = re.FindStringSubmatch(text)
	}
	if m == nil {
		a.fail("read "+what, fmt.Errorf("%s is not in the snapshot:\n%s", pattern, clipped(a.last, 3000)))
		return ""
	}
	return m[1]
}

// clippedReader is a server whose default snapshot may clip long texts,
// saying so, and has a documented way to read them whole.
type clippedReader interface {
	clipped(snapshot string) bool
	readClipped() (string, error)
}

func orAny(role string) string {
	if role == "" {
		return "element"
	}
	return role
}

func clipped(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + fmt.Sprintf("… (%d more characters)", len(r)-n)
	}
	return s
}
