package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// errorCodes lists every ErrorCode constant declared in this package's
// source (not only those some test knows), so that a new code without a
// catalogue entry fails here.
func errorCodes(t *testing.T) map[string]ErrorCode {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ErrorCode{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "ErrorCode" {
					continue
				}
				for i, n := range vs.Names {
					v, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					out[n.Name] = ErrorCode(v)
				}
			}
		}
	}
	return out
}

func TestEveryErrorCodeHasACatalogueEntry(t *testing.T) {
	codes := errorCodes(t)
	if len(codes) < 40 {
		t.Fatalf("found only %d ErrorCode constants; the scan is broken", len(codes))
	}
	known := map[ErrorCode]bool{}
	for name, code := range codes {
		known[code] = true
		e, ok := ErrorCatalogue[code]
		if !ok {
			t.Errorf("%s (%s) has no entry in ErrorCatalogue (errors.go)", name, code)
			continue
		}
		if e.Meaning == "" || e.Recovery == "" || e.Outcome == "" {
			t.Errorf("%s: catalogue entry is incomplete: %+v", code, e)
		}
	}
	for code := range ErrorCatalogue {
		if !known[code] {
			t.Errorf("catalogue entry %s has no ErrorCode constant", code)
		}
	}
}

func TestFailTakesTheCatalogue(t *testing.T) {
	e := Fail(CodeNotOwned, "gone")
	want := ErrorCatalogue[CodeNotOwned]
	if e.Code != CodeNotOwned || e.Message != "gone" || e.Recovery != want.Recovery || e.Outcome != want.Outcome {
		t.Fatalf("Fail = %+v", e)
	}
	if e := FailAs(CodeNotOwned, OutcomeDispatched, "gone"); e.Outcome != OutcomeDispatched || e.Recovery != want.Recovery {
		t.Fatalf("FailAs = %+v", e)
	}
}
