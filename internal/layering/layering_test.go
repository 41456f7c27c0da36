package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/agenttab/agenttab"

// pkg is one Go package directory: its non-test imports and whether a
// non-test file carries a package doc comment.
type pkg struct {
	imports map[string]bool
	hasDoc  bool
}

func loadPackages(t *testing.T) map[string]*pkg {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]*pkg{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		p := pkgs[filepath.ToSlash(rel)]
		if p == nil {
			p = &pkg{imports: map[string]bool{}}
			pkgs[filepath.ToSlash(rel)] = p
		}
		if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" {
			p.hasDoc = true
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(ip, module+"/") {
				p.imports[strings.TrimPrefix(ip, module+"/")] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func TestImportFences(t *testing.T) {
	pkgs := loadPackages(t)
	forbid := func(dir string, what ...string) {
		p, ok := pkgs[dir]
		if !ok {
			t.Errorf("package %s not found", dir)
			return
		}
		for imp := range p.imports {
			for _, w := range what {
				if imp == w || strings.HasPrefix(imp, w+"/") {
					t.Errorf("%s imports %s (DESIGN.md Layering forbids it)", dir, imp)
				}
			}
		}
	}
	if p := pkgs["protocol"]; p == nil || len(p.imports) != 0 {
		t.Errorf("protocol must import nothing of the project: %v", p)
	}
	transports := []string{"internal/corerpc", "internal/nativemsg", "internal/mcpserver", "internal/host"}
	for _, dir := range []string{"internal/store", "internal/audit", "internal/policy"} {
		forbid(dir, transports...)
	}
	// Release trust judges files and bytes only: nothing of the project
	// may decide for it, and it may reach nothing of a running host.
	if p := pkgs["internal/releasetrust"]; p == nil || len(p.imports) != 0 {
		t.Errorf("internal/releasetrust must import nothing of the project: %v", p)
	}
	forbid("internal/mcpserver", "internal/host", "internal/store", "internal/audit", "internal/policy", "internal/nativemsg")
	// adapterbuild only bundles TypeScript: nothing of the project.
	if p := pkgs["internal/adapterbuild"]; p == nil || len(p.imports) != 0 {
		t.Errorf("internal/adapterbuild must import nothing of the project: %v", p)
	}
	// doctor diagnoses from outside: files, install's answers, Core's status.
	forbid("internal/doctor", "internal/host", "internal/store", "internal/audit", "internal/nativemsg", "internal/mcpserver")
	for imp := range pkgs["cmd/agenttab"].imports {
		if imp != "internal/cli" {
			t.Errorf("cmd/agenttab holds only main; it imports %s", imp)
		}
	}
}

func TestEveryPackageHasADocComment(t *testing.T) {
	for dir, p := range loadPackages(t) {
		if !p.hasDoc {
			t.Errorf("package %s has no package doc comment saying what it owns and must never do", dir)
		}
	}
}
