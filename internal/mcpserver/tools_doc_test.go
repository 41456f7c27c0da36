package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsDoc is the human reference to the tools, generated from the tool
// list the server itself serves (the one testdata/tools.golden.json pins),
// so it cannot drift from what agents are told.
var toolsDoc = filepath.Join("..", "..", "docs", "tools.md")

// docs/tools.md is derived from the live tool list: the test fails when a
// name, description or parameter changes without regenerating it.
func TestToolsDocIsFresh(t *testing.T) {
	cs := connect(t, socketPath(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := renderToolsDoc(t, cs.InitializeResult().Instructions, tools.Tools)
	if *update {
		if err := os.WriteFile(toolsDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(toolsDoc)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/mcpserver -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Fatalf("docs/tools.md is stale (-file +generated); run go test ./internal/mcpserver -update:\n%s", diff)
	}
}

// renderToolsDoc writes the tool list as Markdown: per tool its title,
// hints, description and one table row per parameter, nested parameters
// flattened as a.b and a[].b.
func renderToolsDoc(t *testing.T, instructions string, tools []*mcp.Tool) string {
	var b strings.Builder
	b.WriteString("# The MCP tools\n\n")
	b.WriteString("<!-- Generated from the tool list `agenttab mcp` serves by internal/mcpserver/tools_doc_test.go. Do not edit: run `go test ./internal/mcpserver -update`. -->\n\n")
	b.WriteString("This is what `agenttab mcp` tells agents, word for word: its instructions, then every tool with its description and parameters. ")
	b.WriteString("A parameter's *required* is relative to its parent: `actions[].kind` is required in every step.\n\n")
	b.WriteString("## Instructions\n\n")
	for _, line := range strings.Split(instructions, "\n") {
		b.WriteString(strings.TrimSpace("> "+line) + "\n")
	}
	b.WriteString("\n")
	for _, tool := range tools {
		title := tool.Title
		if title == "" && tool.Annotations != nil {
			title = tool.Annotations.Title
		}
		fmt.Fprintf(&b, "## `%s`: %s\n\n", tool.Name, title)
		if h := hints(tool.Annotations); h != "" {
			fmt.Fprintf(&b, "*%s*\n\n", h)
		}
		// Each line of a description is a paragraph of its own.
		b.WriteString(strings.ReplaceAll(tool.Description, "\n", "\n\n") + "\n\n")
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		var rows []string
		paramRows(t, tool.Name, "", s, &rows)
		if len(rows) == 0 {
			b.WriteString("No parameters.\n\n")
			continue
		}
		b.WriteString("| parameter | type | required | description |\n| --- | --- | --- | --- |\n")
		b.WriteString(strings.Join(rows, ""))
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// hints is the tool's annotation hints in words, with the MCP defaults
// (destructive and open world unless said otherwise).
func hints(a *mcp.ToolAnnotations) string {
	if a == nil {
		return ""
	}
	var h []string
	if a.ReadOnlyHint {
		h = append(h, "read-only")
	} else {
		if a.DestructiveHint == nil || *a.DestructiveHint {
			h = append(h, "destructive")
		} else {
			h = append(h, "additive")
		}
		if a.IdempotentHint {
			h = append(h, "idempotent")
		} else {
			h = append(h, "not idempotent")
		}
	}
	if a.OpenWorldHint == nil || *a.OpenWorldHint {
		h = append(h, "open world")
	} else {
		h = append(h, "closed world")
	}
	return strings.Join(h, ", ")
}

// docKeywords is every JSON Schema keyword the renderer shows; a schema
// using another fails the test, so nothing a tool says is left out here.
var docKeywords = []string{"type", "description", "enum", "properties", "required", "items", "additionalProperties",
	"minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "pattern", "default"}

// paramRows appends a row per property of the object schema s, required
// ones first in the schema's order, then the rest by name.
func paramRows(t *testing.T, tool, prefix string, s map[string]any, rows *[]string) {
	props, _ := s["properties"].(map[string]any)
	var required []string
	for _, r := range asList(s["required"]) {
		required = append(required, fmt.Sprint(r))
	}
	names := slices.Clone(required)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if !slices.Contains(required, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		path := prefix + name
		for k := range p {
			if !slices.Contains(docKeywords, k) {
				t.Errorf("%s %s: schema keyword %q is not rendered in docs/tools.md; teach renderToolsDoc it", tool, path, k)
			}
		}
		req := "no"
		if slices.Contains(required, name) {
			req = "yes"
		}
		*rows = append(*rows, fmt.Sprintf("| `%s` | %s | %s | %s |\n", path, cell(typeOf(p)), req, cell(describe(p))))
		if _, ok := p["properties"]; ok {
			paramRows(t, tool, path+".", p, rows)
		}
		if items, ok := p["items"].(map[string]any); ok {
			if _, ok := items["properties"]; ok {
				paramRows(t, tool, path+"[].", items, rows)
			}
		}
	}
}

// typeOf is the schema's type without "null" (an optional field the SDK
// infers as nullable), arrays with their item type.
func typeOf(s map[string]any) string {
	var types []string
	all := asList(s["type"])
	if one, ok := s["type"].(string); ok {
		all = []any{one}
	}
	for _, ty := range all {
		if str, ok := ty.(string); ok && str != "null" {
			types = append(types, str)
		}
	}
	ty := strings.Join(types, " or ")
	if items, ok := s["items"].(map[string]any); ok {
		ty += " of " + typeOf(items)
	}
	return ty
}

// describe is the description followed by the schema's constraints.
func describe(s map[string]any) string {
	d, _ := s["description"].(string)
	var extra []string
	if enum := asList(s["enum"]); len(enum) > 0 {
		var vals []string
		for _, v := range enum {
			vals = append(vals, "`"+fmt.Sprint(v)+"`")
		}
		extra = append(extra, "One of "+strings.Join(vals, ", ")+".")
	}
	lo, hasLo := s["minItems"]
	hi, hasHi := s["maxItems"]
	switch {
	case hasLo && hasHi:
		extra = append(extra, fmt.Sprintf("%v to %v items.", lo, hi))
	case hasLo:
		extra = append(extra, fmt.Sprintf("At least %v items.", lo))
	case hasHi:
		extra = append(extra, fmt.Sprintf("At most %v items.", hi))
	}
	for _, c := range []struct{ key, words string }{
		{"minimum", "Minimum %v."}, {"maximum", "Maximum %v."},
		{"minLength", "At least %v characters."}, {"maxLength", "At most %v characters."},
		{"pattern", "Matches `%v`."}, {"default", "Default `%v`."},
	} {
		if v, ok := s[c.key]; ok {
			extra = append(extra, fmt.Sprintf(c.words, v))
		}
	}
	return strings.TrimSpace(d + " " + strings.Join(extra, " "))
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
