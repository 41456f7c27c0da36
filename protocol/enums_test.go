package protocol

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every enum list holds each constant of its type once, and every enum
// type a request carries has a list (doc.go "Value lists"), so a constant
// added without its list entry, or a new request enum checked against a
// hand-written copy, fails here.
func TestEnumListsAreWhole(t *testing.T) {
	problems, err := enumListProblems(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// The check itself finds each kind of fault in a package made broken on
// purpose.
func TestEnumListCheckFindsBrokenLists(t *testing.T) {
	problems, err := enumListProblems(filepath.Join("testdata", "enumlists"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`Colors misses Blue ("blue")`,
		`Colors repeats "red"`,
		`Shade has two lists, MoreShades and Shades: keep one`,
		`Size is carried by SizeParams but has no list`,
		`Tints holds "teal", which is no Hue constant`,
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// enumListProblems type-checks the package in dir and says, one line
// each, sorted: which list of an enum type (a named string type with
// constants) misses or repeats a constant or holds another value, which
// type has two lists, and which enum type reachable from a *Params
// struct has none. A list is a package-level variable of type []T, or a
// map keyed by T (its keys).
func enumListProblems(dir string) ([]string, error) {
	pkg, files, info, err := loadPackage(dir)
	if err != nil {
		return nil, err
	}
	enums := enumConsts(pkg)

	var problems []string
	lists := map[*types.TypeName][]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					elem, items := listItems(info.Defs[id].Type(), vs.Values[i])
					consts, ok := enums[elem]
					if !ok {
						continue
					}
					lists[elem] = append(lists[elem], id.Name)
					problems = append(problems, listProblems(id.Name, elem.Name(), consts, items, info)...)
				}
			}
		}
	}
	for tn, names := range lists {
		if len(names) > 1 {
			slices.Sort(names)
			problems = append(problems, fmt.Sprintf("%s has two lists, %s: keep one", tn.Name(), strings.Join(names, " and ")))
		}
	}
	for tn, carrier := range carriedEnums(pkg.Scope(), enums) {
		if len(lists[tn]) == 0 {
			problems = append(problems, fmt.Sprintf("%s is carried by %s but has no list", tn.Name(), carrier))
		}
	}
	slices.Sort(problems)
	return problems, nil
}

// listItems says whether a variable of type t is a list of an enum type:
// the element (or key) type and the value's element (or key) expressions.
func listItems(t types.Type, value ast.Expr) (*types.TypeName, []ast.Expr) {
	cl, ok := value.(*ast.CompositeLit)
	if !ok {
		return nil, nil
	}
	var elem types.Type
	keyed := false
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Map:
		elem, keyed = u.Key(), true
	default:
		return nil, nil
	}
	named, ok := types.Unalias(elem).(*types.Named)
	if !ok {
		return nil, nil
	}
	items := make([]ast.Expr, 0, len(cl.Elts))
	for _, e := range cl.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && keyed {
			e = kv.Key
		}
		items = append(items, e)
	}
	return named.Obj(), items
}

// listProblems compares a list's items with its type's constants.
func listProblems(list, typeName string, consts map[string]string, items []ast.Expr, info *types.Info) []string {
	var out []string
	seen := map[string]bool{}
	known := map[string]bool{}
	for _, v := range consts {
		known[v] = true
	}
	for _, e := range items {
		tv := info.Types[e]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			out = append(out, fmt.Sprintf("%s holds %s, which is not a constant", list, types.ExprString(e)))
			continue
		}
		v := constant.StringVal(tv.Value)
		switch {
		case !known[v]:
			out = append(out, fmt.Sprintf("%s holds %q, which is no %s constant", list, v, typeName))
		case seen[v]:
			out = append(out, fmt.Sprintf("%s repeats %q", list, v))
		}
		seen[v] = true
	}
	for name, v := range consts {
		if !seen[v] {
			out = append(out, fmt.Sprintf("%s misses %s (%q)", list, name, v))
		}
	}
	return out
}

// carriedEnums finds the enum types a request carries: those reachable
// through the fields of the package's *Params structs (pointers, slices,
// maps and nested structs followed), each with one *Params type that
// carries it.
func carriedEnums(scope *types.Scope, enums map[*types.TypeName]map[string]string) map[*types.TypeName]string {
	out := map[*types.TypeName]string{}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !strings.HasSuffix(name, "Params") {
			continue
		}
		seen := map[types.Type]bool{}
		var walk func(types.Type)
		walk = func(t types.Type) {
			if seen[t] {
				return
			}
			seen[t] = true
			if named, ok := t.(*types.Named); ok {
				if _, enum := enums[named.Obj()]; enum {
					if _, dup := out[named.Obj()]; !dup {
						out[named.Obj()] = name
					}
				}
			}
			switch u := t.Underlying().(type) {
			case *types.Pointer:
				walk(u.Elem())
			case *types.Slice:
				walk(u.Elem())
			case *types.Array:
				walk(u.Elem())
			case *types.Map:
				walk(u.Key())
				walk(u.Elem())
			case *types.Struct:
				for i := range u.NumFields() {
					if u.Field(i).Exported() {
						walk(u.Field(i).Type())
					}
				}
			}
		}
		walk(tn.Type())
	}
	return out
}
