package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// snapshotLine is one element line of a snapshot, in AgentTab's format
// (`- button "Send" [ref=e12]`, `- listitem [ref=e4]: Pay rent`) or
// Playwright MCP's (`- button "Submit" [ref=e12] [cursor=pointer]`,
// `- generic [ref=f1e4] [cursor=pointer]: Row one`): both are
// "- role", an optional quoted name, bracketed attributes, and an optional
// ": text".
type snapshotLine struct {
	role, name, text, ref string
	attrs                 string
}

var (
	lineRe = regexp.MustCompile(`^\s*- ([A-Za-z][\w-]*)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?:: ?(.*))?$`)
	refRe  = regexp.MustCompile(`\[ref=([A-Za-z0-9_]+)\]`)
)

// parseSnapshot reads the element lines of a snapshot's text; other lines
// (headers, fences, blank) are skipped.
func parseSnapshot(text string) []snapshotLine {
	var out []snapshotLine
	for _, l := range strings.Split(text, "\n") {
		m := lineRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		sl := snapshotLine{role: m[1], name: unescape(m[2]), attrs: m[3], text: unquote(strings.TrimSpace(m[4]))}
		if r := refRe.FindStringSubmatch(m[3]); r != nil {
			sl.ref = r[1]
		}
		out = append(out, sl)
	}
	return out
}

func unescape(s string) string { return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s) }

// unquote drops the YAML quotes Playwright puts around a text holding ": ".
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return unescape(s[1 : len(s)-1])
	}
	return s
}

// says is whether the line's name or text is want (exactly, or containing
// it when contains is set).
func (l snapshotLine) says(want string, contains bool) bool {
	if contains {
		return strings.Contains(l.name, want) || strings.Contains(l.text, want)
	}
	return l.name == want || l.text == want
}

// findRef is the ref of the first line with role (any role when "") whose
// name or text is name, as an agent picks a target it reads.
func findRef(text, role, name string, contains bool) string {
	for _, l := range parseSnapshot(text) {
		if l.ref != "" && (role == "" || l.role == role) && l.says(name, contains) {
			return l.ref
		}
	}
	return ""
}

// findLabelled is the ref of the control a person finds by its caption:
// the line named label, else the first line with a ref after the line
// that says label (a caption in its own line, or a control without a
// name of its own).
func findLabelled(text, label string) string {
	lines := parseSnapshot(text)
	for _, l := range lines {
		if l.ref != "" && l.name == label {
			return l.ref
		}
	}
	for i, l := range lines {
		if !l.says(label, false) {
			continue
		}
		for _, next := range lines[i+1:] {
			if next.ref != "" {
				return next.ref
			}
		}
	}
	return ""
}

// TestSnapshotLines: the scripted agent finds refs by role and name in
// both servers' snapshot formats.
func TestSnapshotLines(t *testing.T) {
	agenttab := "- heading \"Book a trip\" [level=1]\n- textbox \"Destination city\" [ref=e3]: Par\n- listitem [ref=e7]: Paris, France\n- text: Volume\n- generic [ref=e9]\n- link \"Docs\" [ref=e4] [url=https://example.com/a:b]"
	playwright := "### Page\n- Page URL: http://127.0.0.1/x\n### Snapshot\n```yaml\n- generic [active] [ref=f1e1]:\n  - tab \"Payment\" [ref=f1e11] [cursor=pointer]\n  - generic [ref=f4e10]: Invoice 4471 is overdue\n  - paragraph [ref=f6e3]: Volume\n  - generic [ref=f6e5] [cursor=pointer]\n  - paragraph [ref=f6e6]: \"Current volume: 2\"\n  - button \"Say \\\"hi\\\"\" [ref=e2]\n```"
	for _, c := range []struct {
		text, role, name string
		contains         bool
		want             string
	}{
		{agenttab, "textbox", "Destination city", false, "e3"},
		{agenttab, "", "Paris, France", false, "e7"},
		{agenttab, "link", "Docs", false, "e4"},
		{agenttab, "", "Paris", true, "e7"},
		{agenttab, "button", "Paris, France", false, ""},
		{playwright, "tab", "Payment", false, "f1e11"},
		{playwright, "", "Invoice 4471 is overdue", false, "f4e10"},
		{playwright, "paragraph", "Current volume: 2", false, "f6e6"},
		{playwright, "button", `Say "hi"`, false, "e2"},
	} {
		if got := findRef(c.text, c.role, c.name, c.contains); got != c.want {
			t.Errorf("findRef(%q, %q) = %q, want %q", c.role, c.name, got, c.want)
		}
	}
	for _, c := range []struct{ text, label, want string }{
		{agenttab, "Volume", "e9"},
		{agenttab, "Destination city", "e3"},
		{playwright, "Volume", "f6e5"},
		{playwright, "Payment", "f1e11"},
	} {
		if got := findLabelled(c.text, c.label); got != c.want {
			t.Errorf("findLabelled(%q) = %q, want %q", c.label, got, c.want)
		}
	}
}
