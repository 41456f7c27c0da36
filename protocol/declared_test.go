package protocol

import (
	"go/ast"
	"go/build"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"testing"
)

// loadPackage parses and type-checks the Go package in dir (the standard
// library only, as internal/tsgen reads this package).
func loadPackage(dir string) (*types.Package, []*ast.File, *types.Info, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check(bp.Name, fset, files, info)
	return pkg, files, info, err
}

// enumConsts finds pkg's enum types, the named string types declared in
// it with constants, and their constants' values by constant name.
func enumConsts(pkg *types.Package) map[*types.TypeName]map[string]string {
	enums := map[*types.TypeName]map[string]string{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		if named, ok := c.Type().(*types.Named); ok && named.Obj().Pkg() == pkg {
			if enums[named.Obj()] == nil {
				enums[named.Obj()] = map[string]string{}
			}
			enums[named.Obj()][name] = constant.StringVal(c.Val())
		}
	}
	return enums
}

// declared lists the string constants of the named type declared in this
// package's source, by constant name: every one, not only those some test
// knows, so that a value added without its table entry fails a test.
func declared[T ~string](t *testing.T, typeName string) map[string]T {
	t.Helper()
	pkg, _, _, err := loadPackage(".")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]T{}
	for tn, consts := range enumConsts(pkg) {
		if tn.Name() == typeName {
			for name, v := range consts {
				out[name] = T(v)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s constants found; the scan is broken", typeName)
	}
	return out
}
