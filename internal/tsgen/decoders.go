package tsgen

// Run-time decoders. The generated interfaces say what the host means to
// send; nothing proves it did, so the extension reads each message through
// a decoder derived from the same Go struct: decode<Type>(v, path) returns
// v as a <Type> or throws a DecodeError naming the first value that does
// not fit (issue 10 part 1: the extension's hand-written decode.ts is
// replaced by these).
//
// A decoder accepts what encoding/json writes for its Go type: a
// non-omitempty field's key is always there (a nil slice or map is written
// as null, read as [] or {}); an omitempty or pointer field may be absent
// or null, and is then left out. Enums are checked against their constants
// (<Type>Values), integers must be safe integers, a `ts:"\"literal\""`
// field must equal its literal. A Go shape without an exact check is an
// error here, never a looser decoder.
//
// Decoders are written for every struct reachable from a type table's
// values (protocol.NativeParams: the params of each host→extension method,
// also as a table <Table>Decoders) and from a struct whose doc comment
// holds the directive //tsgen:decode (protocol.NativeWelcome).

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// directiveDecode marks a struct type as a decoder root.
const directiveDecode = "//tsgen:decode"

// decoderGen writes the decoders of one package.
type decoderGen struct {
	g *generator
	// code holds each written decoder; queue the structs still to write.
	code  map[*types.TypeName]string
	queue []*types.Named
	// helpers are the run-time helpers the decoders call.
	helpers map[string]bool
}

// decoders writes the decoders section: nothing for a package without
// roots.
func (g *generator) decoders() error {
	roots, err := g.decodeRoots()
	if err != nil {
		return err
	}
	if len(roots) == 0 && len(g.tables) == 0 {
		return nil
	}
	d := &decoderGen{g: g, code: map[*types.TypeName]string{}, helpers: map[string]bool{}}
	d.queue = roots
	var tables strings.Builder
	for _, t := range g.tables {
		s, err := d.table(t)
		if err != nil {
			return err
		}
		tables.WriteString(s)
	}
	for len(d.queue) > 0 {
		n := d.queue[0]
		d.queue = d.queue[1:]
		if _, done := d.code[n.Obj()]; done {
			continue
		}
		d.code[n.Obj()] = "" // a struct that refers to itself is written once
		s, err := d.structDecoder(n)
		if err != nil {
			return err
		}
		d.code[n.Obj()] = s
	}
	g.out.WriteString("\n" + lineComment(sectionComment) + decodeErrorClass)
	for _, h := range helpers {
		if d.helpers[h.name] {
			g.out.WriteString("\n" + h.code)
		}
	}
	// Source order, as for every other declaration.
	g.eachTypeSpec(func(ts *ast.TypeSpec, _ *ast.GenDecl) {
		if tn, ok := g.pkg.info.Defs[ts.Name].(*types.TypeName); ok && d.code[tn] != "" {
			g.out.WriteString("\n" + d.code[tn])
		}
	})
	g.out.WriteString(tables.String())
	return nil
}

const sectionComment = `Run-time decoders (internal/tsgen/decoders.go). decode<Type>(v, path)
returns v as a <Type> when it has the shape encoding/json writes for the
Go type, else throws a DecodeError naming the first value that does not
fit, from path ("params" unless told). Absent or null optional fields are
left out; a null list is []; keys Go always writes must be there.`

const decodeErrorClass = `
/** A value of a host message that does not fit its Go type: path names it, want says what it must be. */
export class DecodeError extends globalThis.Error {
  readonly path: string;
  readonly want: string;

  constructor(path: string, want: string) {
    super(` + "`${path} must be ${want}`" + `);
    this.name = "DecodeError";
    this.path = path;
    this.want = want;
  }
}
`

// helper is a run-time function the decoders call, written only when used
// (the extension compiles with noUnusedLocals).
type helper struct {
	name string
	// uses are the helpers its code calls.
	uses []string
	code string
}

// helpers in the order they are written.
var helpers = []helper{
	{"isObject", nil, `function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
`},
	{"has", nil, `/** Whether an optional field is there: encoding/json leaves it out, and null means nil. */
function has(v: unknown): boolean {
  return v !== undefined && v !== null;
}
`},
	{"readObject", []string{"isObject"}, `function readObject(v: unknown, path: string): Record<string, unknown> {
  if (!isObject(v)) throw new DecodeError(path, "an object");
  return v;
}
`},
	{"readString", nil, `function readString(v: unknown, path: string): string {
  if (typeof v !== "string") throw new DecodeError(path, "a string");
  return v;
}
`},
	{"readInt", nil, `/** An int or int64: JavaScript holds integers exactly up to 2^53. */
function readInt(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new DecodeError(path, "an integer");
  return v;
}
`},
	{"readNumber", nil, `function readNumber(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new DecodeError(path, "a number");
  return v;
}
`},
	{"readBool", nil, `function readBool(v: unknown, path: string): boolean {
  if (typeof v !== "boolean") throw new DecodeError(path, "true or false");
  return v;
}
`},
	{"readEnum", nil, `function readEnum<T>(v: unknown, path: string, values: readonly T[]): T {
  const found = values.find((x) => x === v);
  if (found === undefined) throw new DecodeError(path, ` + "`one of ${values.map((x) => JSON.stringify(x)).join(\", \")}`" + `);
  return found;
}
`},
	{"readLiteral", nil, `function readLiteral<T extends string>(v: unknown, path: string, want: T): T {
  if (v !== want) throw new DecodeError(path, JSON.stringify(want));
  return want;
}
`},
	{"readList", nil, `/** A slice: encoding/json writes nil as null. */
function readList<T>(v: unknown, path: string, item: (v: unknown, path: string) => T): T[] {
  if (v === null) return [];
  if (!Array.isArray(v)) throw new DecodeError(path, "a list");
  return v.map((x, i) => item(x, ` + "`${path}[${i}]`" + `));
}
`},
	{"readMap", []string{"readObject"}, `/** A map with string keys: encoding/json writes nil as null. */
function readMap<T>(v: unknown, path: string, item: (v: unknown, path: string) => T): Record<string, T> {
  if (v === null) return {};
  return Object.fromEntries(Object.entries(readObject(v, path)).map(([k, x]) => [k, item(x, ` + "`${path}[${JSON.stringify(k)}]`" + `)]));
}
`},
}

// use records that a helper is called, with the helpers it calls.
func (d *decoderGen) use(name string) string {
	if d.helpers[name] {
		return name
	}
	d.helpers[name] = true
	for _, h := range helpers {
		if h.name == name {
			for _, u := range h.uses {
				d.use(u)
			}
		}
	}
	return name
}

// eachTypeSpec calls fn on each type spec of the package, in source order.
func (g *generator) eachTypeSpec(fn func(*ast.TypeSpec, *ast.GenDecl)) {
	for _, f := range g.pkg.files {
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, spec := range gd.Specs {
					fn(spec.(*ast.TypeSpec), gd)
				}
			}
		}
	}
}

// decodeRoots are the struct types marked //tsgen:decode, in source order.
// Any other //tsgen: directive is an error, not a no-op.
func (g *generator) decodeRoots() ([]*types.Named, error) {
	var roots []*types.Named
	var err error
	g.eachTypeSpec(func(ts *ast.TypeSpec, gd *ast.GenDecl) {
		docs := []*ast.CommentGroup{ts.Doc}
		if len(gd.Specs) == 1 {
			docs = append(docs, gd.Doc)
		}
		for _, doc := range docs {
			if doc == nil {
				continue
			}
			for _, c := range doc.List {
				if !strings.HasPrefix(c.Text, "//tsgen:") {
					continue
				}
				tn, _ := g.pkg.info.Defs[ts.Name].(*types.TypeName)
				switch {
				case err != nil:
				case c.Text != directiveDecode:
					err = fmt.Errorf("%s: unknown directive %s", ts.Name.Name, c.Text)
				case tn == nil || !ts.Name.IsExported():
					err = fmt.Errorf("%s: %s on an unexported type", ts.Name.Name, directiveDecode)
				default:
					if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
						err = fmt.Errorf("%s: %s on a type that is not a struct", ts.Name.Name, directiveDecode)
					}
					roots = append(roots, tn.Type().(*types.Named))
				}
			}
		}
	})
	return roots, err
}

// reserveNames refuses a package whose own names the generated ones would
// shadow: <Type>Values, DecodeError, <Table>Decoders.
func (g *generator) reserveNames() error {
	scope := g.pkg.types.Scope()
	taken := func(name, by string) error {
		if scope.Lookup(name) != nil {
			return fmt.Errorf("%s: the generated %s has this name", name, by)
		}
		return nil
	}
	if err := taken("DecodeError", "decoders' error class"); err != nil {
		return err
	}
	for _, t := range g.tables {
		if err := taken(t.name+"Decoders", t.name+"'s decoder table"); err != nil {
			return err
		}
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named := tn.Type().(*types.Named)
		if len(g.enumConsts(named)) > 0 || g.tableOf[tn] != nil {
			if err := taken(valuesName(named), name+"'s list of values"); err != nil {
				return err
			}
		}
	}
	return nil
}

// decoderName is the decoder of a struct type.
func decoderName(n *types.Named) string { return "decode" + n.Obj().Name() }

// table writes a type table's decoders: one per key, reading its value's
// type; a struct{} value (a method without params) reads nothing.
func (d *decoderGen) table(t *table) (string, error) {
	var b strings.Builder
	b.WriteString("\n/** The decoder of each " + t.key.Obj().Name() + "'s " + t.name + " entry. */\n")
	b.WriteString("export const " + t.name + "Decoders: { readonly [K in " + t.key.Obj().Name() + "]: (v: unknown) => " + t.name + "[K] } = {\n")
	for _, elt := range t.lit.Elts {
		kv := elt.(*ast.KeyValueExpr)
		ktv := d.g.pkg.info.Types[kv.Key]
		if ktv.Value == nil || ktv.Value.Kind() != constant.String {
			return "", fmt.Errorf("%s: a key is not a string constant", t.name)
		}
		key := constant.StringVal(ktv.Value)
		typ := d.g.pkg.info.Types[kv.Value].Type
		var fn string
		if st, ok := typ.(*types.Struct); ok && st.NumFields() == 0 {
			fn = "() => ({})" // encoding/json writes struct{} as {}; nothing in it is read
		} else {
			var err error
			if fn, err = d.fn(typ); err != nil {
				return "", fmt.Errorf("%s[%s]: %w", t.name, key, err)
			}
		}
		b.WriteString("  " + propertyName(key) + ": " + fn + ",\n")
	}
	b.WriteString("};\n")
	return b.String(), nil
}

// structDecoder writes decode<Type>: required fields in the object
// literal, then each optional field that is there.
func (d *decoderGen) structDecoder(n *types.Named) (string, error) {
	name := n.Obj().Name()
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return "", fmt.Errorf("%s: only structs get decoders", name)
	}
	fields, err := jsonFields(name, st)
	if err != nil {
		return "", err
	}
	var required, optional []string
	for _, jf := range fields {
		f, key, tag, isOptional := jf.v, jf.key, jf.tag, jf.omitted
		value, path := "f["+jsString(key)+"]", "path + "+jsString("."+key)
		var expr string
		var err error
		if lit, override := tag.Lookup("ts"); override {
			expr, err = d.literal(f.Type(), lit, value, path)
		} else {
			t := f.Type()
			if ptr, ok := t.(*types.Pointer); ok {
				// nil is left out (omitempty) or null: absent in the result.
				isOptional, t = true, ptr.Elem()
			}
			expr, err = d.call(t, value, path)
		}
		if err != nil {
			return "", fmt.Errorf("%s.%s: %w", name, f.Name(), err)
		}
		if isOptional {
			optional = append(optional, "  if ("+d.use("has")+"("+value+")) out"+member(key)+" = "+expr+";\n")
		} else {
			required = append(required, "    "+propertyName(key)+": "+expr+",\n")
		}
	}
	var b strings.Builder
	b.WriteString("export function " + decoderName(n) + "(v: unknown, path = \"params\"): " + name + " {\n")
	literal := "{\n" + strings.Join(required, "") + "  }"
	if len(required) == 0 {
		literal = "{}"
	}
	if len(required)+len(optional) == 0 {
		b.WriteString("  " + d.use("readObject") + "(v, path);\n  return {};\n}\n")
		return b.String(), nil
	}
	b.WriteString("  const f = " + d.use("readObject") + "(v, path);\n")
	if len(optional) == 0 {
		b.WriteString("  return " + literal + ";\n}\n")
		return b.String(), nil
	}
	b.WriteString("  const out: " + name + " = " + literal + ";\n")
	b.WriteString(strings.Join(optional, ""))
	b.WriteString("  return out;\n}\n")
	return b.String(), nil
}

// member is the property access of a json key on out.
func member(key string) string {
	if p := propertyName(key); p == key {
		return "." + key
	}
	return "[" + jsString(key) + "]"
}

// literal checks a field whose TypeScript type a `ts` tag overrides. Only
// a string field overridden by one string literal has an exact check.
func (d *decoderGen) literal(t types.Type, tag, value, path string) (string, error) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Kind() != types.String {
		return "", fmt.Errorf("ts override %s on a field of type %s has no decoder", tag, t)
	}
	var s string
	if err := json.Unmarshal([]byte(tag), &s); err != nil || jsString(s) != tag {
		return "", fmt.Errorf("ts override %s is not one string literal: it has no decoder", tag)
	}
	return d.use("readLiteral") + "(" + value + ", " + path + ", " + tag + ")", nil
}

// fn is a function (v, path) => T reading t: a decoder or helper by name
// where one reads exactly t, else an arrow.
func (d *decoderGen) fn(t types.Type) (string, error) {
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		if err := d.local(n); err != nil {
			return "", err
		}
		if _, ok := n.Underlying().(*types.Struct); ok {
			d.queue = append(d.queue, n)
			return decoderName(n), nil
		}
		if !d.enum(n) {
			return d.fn(n.Underlying())
		}
	}
	if b, ok := t.(*types.Basic); ok {
		return d.basic(b)
	}
	expr, err := d.call(t, "x", "p")
	if err != nil {
		return "", err
	}
	// An item taken as it is (any) does not read its path: tsc's
	// noUnusedParameters refuses a parameter nothing reads.
	if expr == "x" {
		return "(x) => " + expr, nil
	}
	return "(x, p) => " + expr, nil
}

// local refuses a named type the generated file does not declare.
func (d *decoderGen) local(n *types.Named) error {
	if n.Obj().Pkg() != d.g.pkg.types || !n.Obj().Exported() {
		return fmt.Errorf("type %s is outside the generated package", n)
	}
	return nil
}

// enum reports whether n is checked against <n>Values.
func (d *decoderGen) enum(n *types.Named) bool {
	return len(d.g.enumConsts(n)) > 0 || d.g.tableOf[n.Obj()] != nil
}

// call is the expression reading value (at path) as t.
func (d *decoderGen) call(t types.Type, value, path string) (string, error) {
	apply := func(fn string) string { return fn + "(" + value + ", " + path + ")" }
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if err := d.local(t); err != nil {
			return "", err
		}
		if _, ok := t.Underlying().(*types.Struct); ok {
			d.queue = append(d.queue, t)
			return apply(decoderName(t)), nil
		}
		if d.enum(t) {
			return d.use("readEnum") + "(" + value + ", " + path + ", " + valuesName(t) + ")", nil
		}
		return d.call(t.Underlying(), value, path)
	case *types.Basic:
		fn, err := d.basic(t)
		if err != nil {
			return "", err
		}
		return apply(fn), nil
	case *types.Slice:
		if b, ok := t.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return "", fmt.Errorf("[]byte (base64) has no decoder")
		}
		item, err := d.fn(t.Elem())
		if err != nil {
			return "", err
		}
		return d.use("readList") + "(" + value + ", " + path + ", " + item + ")", nil
	case *types.Map:
		if b, ok := t.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return "", fmt.Errorf("map key %s is not a string", t.Key())
		}
		item, err := d.fn(t.Elem())
		if err != nil {
			return "", err
		}
		return d.use("readMap") + "(" + value + ", " + path + ", " + item + ")", nil
	case *types.Pointer:
		// Not a field (a field's pointer is optional): an element of a
		// list or map, which encoding/json writes as null for nil.
		elem, err := d.call(t.Elem(), value, path)
		if err != nil {
			return "", err
		}
		return "(" + value + " === null ? null : " + elem + ")", nil
	case *types.Interface:
		if t.Empty() {
			return value, nil // unknown: any value is one
		}
	}
	return "", fmt.Errorf("type %s has no decoder", t)
}

// basic is the helper reading a basic type. Only the types whose every
// JSON value a check can tell are decoded: int and int64 (safe integers;
// the host's int is 64 bits), float64, bool and string.
func (d *decoderGen) basic(b *types.Basic) (string, error) {
	switch b.Kind() {
	case types.String:
		return d.use("readString"), nil
	case types.Bool:
		return d.use("readBool"), nil
	case types.Int, types.Int64:
		return d.use("readInt"), nil
	case types.Float64:
		return d.use("readNumber"), nil
	}
	return "", fmt.Errorf("type %s has no decoder", b)
}
