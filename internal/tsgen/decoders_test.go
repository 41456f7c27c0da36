package tsgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generateSource runs Generate on a one-file package.
func generateSource(t *testing.T, src string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Generate(dir)
	return string(out), err
}

// TestRefusesUndecodable checks that a shape the TypeScript types can
// express but no decoder can check exactly fails generation, naming the
// field, instead of getting a looser decoder. Each shape is reached from a
// //tsgen:decode root, or from a type table.
func TestRefusesUndecodable(t *testing.T) {
	const root = "package p\n//tsgen:decode\ntype T struct{ A "
	for name, c := range map[string]struct{ src, want string }{
		"bytes":             {root + "[]byte `json:\"a\"` }\n", "T.A: []byte"},
		"array":             {root + "[2]int `json:\"a\"` }\n", "T.A: type [2]int has no decoder"},
		"float32":           {root + "float32 `json:\"a\"` }\n", "T.A: type float32 has no decoder"},
		"uint":              {root + "uint `json:\"a\"` }\n", "T.A: type uint has no decoder"},
		"int32 in a list":   {root + "[]int32 `json:\"a\"` }\n", "T.A: type int32 has no decoder"},
		"empty struct":      {root + "struct{} `json:\"a\"` }\n", "T.A: type struct{} has no decoder"},
		"type override":     {root + "string `json:\"a\" ts:\"number\"` }\n", "T.A: ts override number is not one string literal"},
		"union override":    {root + "string `json:\"a\" ts:\"\\\"x\\\" | \\\"y\\\"\"` }\n", "is not one string literal"},
		"override on int":   {root + "int `json:\"a\" ts:\"\\\"x\\\"\"` }\n", "T.A: ts override \"x\" on a field of type int"},
		"override on ptr":   {root + "*string `json:\"a\" ts:\"\\\"x\\\"\"` }\n", "T.A: ts override \"x\" on a field of type *string"},
		"nested":            {root + "[]U `json:\"a\"` }\ntype U struct{ B []byte `json:\"b\"` }\n", "U.B: []byte"},
		"table value":       {"package p\ntype K string\nvar Table = map[K]any{\"k\": U{}}\ntype U struct{ B uint `json:\"b\"` }\n", "U.B: type uint"},
		"unknown directive": {"package p\n//tsgen:encode\ntype T struct{}\n", "T: unknown directive //tsgen:encode"},
		"not a struct":      {"package p\n//tsgen:decode\ntype T []int\n", "T: //tsgen:decode on a type that is not a struct"},
		"values name taken": {"package p\ntype C string\nconst CRed C = \"red\"\nconst CValues = 1\n", "CValues: the generated C's list of values has this name"},
		"decoders taken":    {"package p\ntype K string\nvar Table = map[K]any{\"k\": struct{}{}}\nconst TableDecoders = 1\n", "TableDecoders: the generated Table's decoder table"},
		"error taken":       {"package p\ntype DecodeError struct{}\n", "DecodeError: the generated decoders' error class"},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := generateSource(t, c.src)
			if err == nil {
				t.Fatalf("Generate succeeded:\n%s", out)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}
}

// TestDecodersOnlyForRoots: a package without a type table or a
// //tsgen:decode root gets no decoders, and a type no root reaches gets
// none either (its shape is then not refused: nothing decodes it).
func TestDecodersOnlyForRoots(t *testing.T) {
	out, err := generateSource(t, "package p\ntype T struct{ A []byte `json:\"a\"` }\n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "DecodeError") || strings.Contains(out, "function") {
		t.Errorf("decoders written without a root:\n%s", out)
	}
	out, err = generateSource(t, "package p\n//tsgen:decode\ntype R struct{ A int `json:\"a\"` }\ntype T struct{ A []byte `json:\"a\"` }\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "export function decodeR(") || strings.Contains(out, "decodeT") {
		t.Errorf("want decodeR only:\n%s", out)
	}
}
