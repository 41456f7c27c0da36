package releasetrust

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const goodManifest = `{"schema":1,"product":"agenttab","version":"2.0.0-rc.1","channel":"prerelease","artifacts":[{"name":"agenttab.exe","size":3,"sha256":"` + zeros + `","os":"windows"}]}`

const zeros = "0000000000000000000000000000000000000000000000000000000000000000"

func TestDecodeManifestIsStrict(t *testing.T) {
	if _, err := DecodeManifest([]byte(goodManifest)); err != nil {
		t.Fatalf("good manifest: %v", err)
	}
	art := func(a string) string {
		return `{"schema":1,"product":"agenttab","version":"2.0.0-rc.1","channel":"prerelease","artifacts":[` + a + `]}`
	}
	for name, tt := range map[string]struct{ in, text string }{
		"unknown member":           {strings.Replace(goodManifest, `"schema":1,`, `"schema":1,"signed":true,`, 1), "unknown field"},
		"duplicate top-level":      {strings.Replace(goodManifest, `"schema":1,`, `"schema":1,"schema":1,`, 1), `"schema" appears twice`},
		"duplicate in an artifact": {art(`{"name":"a","size":1,"size":2,"sha256":"` + zeros + `"}`), `"size" appears twice`},
		"data after the object":    {goodManifest + `{}`, "after the JSON value"},
		"not an object":            {`[]`, "cannot unmarshal"},
		"schema 2":                 {strings.Replace(goodManifest, `"schema":1`, `"schema":2`, 1), "schema 2"},
		"another product":          {strings.Replace(goodManifest, `"agenttab",`, `"other",`, 1), "product"},
		"version not semver":       {strings.Replace(goodManifest, `2.0.0-rc.1`, `v2`, 1), "semantic version"},
		"unknown channel":          {strings.Replace(goodManifest, `prerelease`, `nightly`, 1), "channel"},
		"no artifacts":             {art(``), "no artifacts"},
		"path in a name":           {art(`{"name":"../agenttab","size":1,"sha256":"` + zeros + `"}`), "plain file name"},
		"separator in a name":      {art(`{"name":"bin\\agenttab","size":1,"sha256":"` + zeros + `"}`), "plain file name"},
		"hidden name":              {art(`{"name":".agenttab","size":1,"sha256":"` + zeros + `"}`), "plain file name"},
		"name twice, other case":   {art(`{"name":"A.exe","size":1,"sha256":"` + zeros + `"},{"name":"a.exe","size":1,"sha256":"` + zeros + `"}`), "listed twice"},
		"negative size":            {art(`{"name":"a","size":-1,"sha256":"` + zeros + `"}`), "outside"},
		"size beyond the bound":    {art(`{"name":"a","size":4294967297,"sha256":"` + zeros + `"}`), "outside"},
		"size not an integer":      {art(`{"name":"a","size":1.5,"sha256":"` + zeros + `"}`), "cannot unmarshal"},
		"upper-case digest":        {art(`{"name":"a","size":1,"sha256":"` + strings.ToUpper(strings.Repeat("ab", 32)) + `"}`), "lowercase hex"},
		"short digest":             {art(`{"name":"a","size":1,"sha256":"abcd"}`), "lowercase hex"},
		"unknown os":               {art(`{"name":"a","size":1,"sha256":"` + zeros + `","os":"plan9"}`), "os"},
		"too large":                {strings.Repeat(" ", MaxManifestBytes) + goodManifest, "more than"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeManifest([]byte(tt.in))
			if !errors.Is(err, ErrMalformedManifest) {
				t.Fatalf("DecodeManifest = %v, want ErrMalformedManifest", err)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q does not say %q", err, tt.text)
			}
		})
	}
}

func TestParseConfigRefusesBadKeys(t *testing.T) {
	for name, in := range map[string]string{
		"short key":       `{"schema":1,"keys":[{"id":"k","channel":"stable","ed25519_public_key":"AAAA"}]}`,
		"unknown channel": `{"schema":1,"keys":[{"id":"k","channel":"beta","ed25519_public_key":"` + strings.Repeat("A", 43) + `="}]}`,
		"unknown member":  `{"schema":1,"keys":[],"private_key":"x"}`,
		"duplicate keys":  `{"schema":1,"keys":[],"keys":[]}`,
		"schema 0":        `{"keys":[]}`,
	} {
		if _, err := ParseConfig([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzDecodeManifest: the decoder never panics, and what it accepts is a
// fixed point (re-encoded and decoded again it is the same manifest), so a
// manifest means one thing.
func FuzzDecodeManifest(f *testing.F) {
	for _, s := range []string{
		goodManifest,
		`{}`,
		`{"schema":1,"schema":1}`,
		`{"schema":1,"product":"agenttab","version":"1.0.0","channel":"stable","artifacts":[{"name":"a","size":0,"sha256":"` + zeros + `"}]}`,
		`{"a":{"b":[{"c":1,"c":2}]}}`,
		`[{"name":"x"}]`,
		`{"artifacts":[{"name":"../x","size":-1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeManifest(data)
		if err != nil {
			if !errors.Is(err, ErrMalformedManifest) {
				t.Fatalf("error %v is not ErrMalformedManifest", err)
			}
			return
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := DecodeManifest(again)
		if err != nil {
			t.Fatalf("re-encoded manifest refused: %v\n%s", err, again)
		}
		if d := cmp.Diff(m, m2); d != "" {
			t.Fatalf("re-decoded manifest differs (-first +second):\n%s", d)
		}
	})
}

func TestNoDuplicateKeysWalksNesting(t *testing.T) {
	for in, dup := range map[string]bool{
		`{"a":{"a":1},"b":[{"a":1},{"a":2}]}`: false,
		`{"a":{},"b":[],"c":{"d":[{}]}}`:      false,
		`{"a":{"x":1,"x":2}}`:                 true,
		`[{"a":1},{"b":1,"b":2}]`:             true,
		`{"a":[1,{"k":1}],"a":0}`:             true,
	} {
		if err := noDuplicateKeys([]byte(in)); (err != nil) != dup {
			t.Errorf("%s: err = %v, want duplicate %v", in, err, dup)
		}
	}
}
