package mcpserver

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// toolName is how AgentTab's tools are spelled (spec 000: browser_open,
// browser_handoff, …).
var toolName = regexp.MustCompile(`\bbrowser_[a-z_]+[a-z]\b`)

// tsString matches a TypeScript string literal, template literals included
// (the extension writes recovery texts in all three quotes).
var tsString = regexp.MustCompile("\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'|`(?:[^`\\\\]|\\\\.)*`")

// A recovery text never points to something the running build lacks
// (brief; issue 10): every tool named in a string the product can send
// (Go string literals of the host, the adapters and the vocabulary, and
// the extension's TypeScript strings) is a tool this build lists. Comments
// may name the tools that are still to come.
func TestTextsNameOnlyToolsThisBuildHas(t *testing.T) {
	cs := connect(t, socketPath(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Error codes share the prefix; they are not tools.
	listed := map[string]bool{string(protocol.CodeBrowserRestrictedOrigin): true}
	// Listed when the host says the user's policy enables Developer mode.
	listed[protocol.MethodDeveloper] = true
	for _, tool := range tools.Tools {
		listed[tool.Name] = true
	}
	root := filepath.Join("..", "..")
	check := func(where, text string) {
		for _, name := range toolName.FindAllString(text, -1) {
			if !listed[name] {
				t.Errorf("%s names %s, which this build does not list: %q", where, name, text)
			}
		}
	}
	for _, dir := range []string{"internal", "protocol", filepath.Join("extension", "src")} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch {
			case strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".test.ts"):
			case strings.HasSuffix(path, ".go"):
				goStrings(t, path, check)
			case strings.HasSuffix(path, ".ts"):
				src, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				for _, lit := range tsString.FindAllString(stripTSComments(string(src)), -1) {
					check(path, lit)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// goStrings calls check with every string literal of a Go file.
func goStrings(t *testing.T, path string, check func(where, text string)) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			check(path, s)
		}
		return true
	})
}

// tsComment matches // and /* */ comments outside strings closely enough
// for this check: a comment may name a tool still to come.
var tsComment = regexp.MustCompile(`(?m)^\s*//.*$|/\*[\s\S]*?\*/|\s//\s.*$`)

func stripTSComments(src string) string { return tsComment.ReplaceAllString(src, "") }
