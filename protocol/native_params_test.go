package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// notHostRequests are the Native* string constants that name no
// host→extension request: the native host's registered name (the
// extension→host requests are ExtRequests's keys).
var notHostRequests = map[string]bool{"NativeHostName": true}

// Every host→extension request method has its params type in NativeParams,
// which tsgen turns into the extension's NativeMethod union and its
// dispatch table's type: a method added without its entry would reach the
// extension as unknown_method, with nothing to tell the author.
func TestEveryNativeMethodHasItsParams(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type != nil {
				return true
			}
			for i, id := range vs.Names {
				if !strings.HasPrefix(id.Name, "Native") || strings.HasPrefix(id.Name, "NativeType") || notHostRequests[id.Name] || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				method, _ := strconv.Unquote(lit.Value)
				if _, ext := ExtRequests[method]; ext {
					continue
				}
				found++
				if _, ok := NativeParams[NativeMethod(method)]; !ok {
					t.Errorf("%s (%q) has no entry in NativeParams", id.Name, method)
				}
			}
			return true
		})
	}
	if found != len(NativeParams) {
		t.Errorf("found %d host→extension methods, NativeParams has %d entries", found, len(NativeParams))
	}
}

// TestNativeClassesCoverNativeParams: every method has its class, and
// nothing else does; a method without one would be classified a mutation
// by the host and refused by the extension.
func TestNativeClassesCoverNativeParams(t *testing.T) {
	for m := range NativeParams {
		if _, ok := NativeClasses[m]; !ok {
			t.Errorf("%s has no entry in NativeClasses", m)
		}
	}
	for m := range NativeClasses {
		if _, ok := NativeParams[m]; !ok {
			t.Errorf("NativeClasses has %s, which NativeParams lacks", m)
		}
	}
}
