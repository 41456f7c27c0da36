package audit

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var fuzzSeeds = []string{
	``, `null`, `{}`, `[]`, `"string(9)"`, `{"url":"https://a.example/secret?q=1"}`,
	`{"title":"Canary Title 987","steps":[{"text":"password123"},{"text":"x"}]}`,
	`[1,"a",true,null,{"k":"v"},[[]]]`, `{"a":1,"a":"dup"}`, `{"numbernumber":"numbernumber"}`,
	`"\ud800"`, `1e999`, `{"url":["http://[::1]:80/","chrome://version"]}`,
}

// mutate returns v with every string value replaced by one of the same byte
// length that differs from it, keeping keys and every other value.
func mutate(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = mutate(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = mutate(e)
		}
		return out
	case string:
		fill := "Z"
		if strings.HasPrefix(v, "Z") {
			fill = "Q"
		}
		return strings.Repeat(fill, len(v))
	}
	return v
}

// stringValues returns every string value (not key) in v.
func stringValues(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			stringValues(e, out)
		}
	case []any:
		for _, e := range v {
			stringValues(e, out)
		}
	case string:
		*out = append(*out, v)
	}
}

var leafPattern = regexp.MustCompile(`^(string\(\d+\)|number|bool|null)$`)

// checkLeaves asserts that every string in a summary is a shape word.
func checkLeaves(t *testing.T, s any) {
	t.Helper()
	switch s := s.(type) {
	case map[string]any:
		for _, e := range s {
			checkLeaves(t, e)
		}
	case []any:
		for _, e := range s {
			checkLeaves(t, e)
		}
	case string:
		if !leafPattern.MatchString(s) {
			t.Fatalf("summary leaf %q is not a shape", s)
		}
	case int:
	default:
		t.Fatalf("summary holds a %T", s)
	}
}

// FuzzSummarize checks that a summary depends only on structure: it never
// panics, its leaves are shape words, changing every string value leaves it
// unchanged, and no string value of 8 bytes or more appears in it except as
// text the value-free version also contains (an object key or a shape word).
func FuzzSummarize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Summarize(data)
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("summary does not marshal: %v", err)
		}
		v, err := parse(data)
		if err != nil {
			return
		}
		checkLeaves(t, s)
		m, err := json.Marshal(mutate(v))
		if err != nil {
			t.Fatal(err)
		}
		mutated, err := json.Marshal(Summarize(m))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, mutated) {
			t.Fatalf("summary depends on values:\n%s\n%s", out, mutated)
		}
		var values []string
		stringValues(v, &values)
		for _, val := range values {
			if len(val) >= 8 && strings.Contains(string(out), val) && !strings.Contains(string(mutated), val) {
				t.Fatalf("summary %s leaks the value %q", out, val)
			}
		}
	})
}

// FuzzDigest checks that Digest never panics, has its fixed form, and ignores
// formatting; and that Origins returns sorted, unique, path-free origins (or bare
// schemes).
func FuzzDigest(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	digestPattern := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Digest(data)
		if !digestPattern.MatchString(d) || Digest(data) != d {
			t.Fatalf("Digest = %q", d)
		}
		origins := Origins(data)
		if origins == nil {
			t.Fatal("Origins returned nil")
		}
		for i, o := range origins {
			scheme, host, ok := strings.Cut(o, "://")
			if bare, found := strings.CutSuffix(o, ":"); !ok && found && isScheme(bare) {
				continue
			}
			if !ok || !isScheme(scheme) || host == "" || strings.ContainsAny(host, "/?#@") {
				t.Fatalf("origin %q is not scheme://host[:port] or scheme:", o)
			}
			if i > 0 && origins[i-1] >= o {
				t.Fatalf("origins not sorted and unique: %q", origins)
			}
		}
		if _, err := parse(data); err != nil {
			return
		}
		var indented bytes.Buffer
		if err := json.Indent(&indented, data, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := Digest(indented.Bytes()); got != d {
			t.Fatalf("indenting changed the digest: %s vs %s", got, d)
		}
		if got := Origins(indented.Bytes()); !cmp.Equal(got, origins) {
			t.Fatalf("indenting changed the origins: %q vs %q", got, origins)
		}
	})
}
