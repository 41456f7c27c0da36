package audit

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"no arguments", ``, nil},
		{"whitespace only", " \n", nil},
		{"invalid", `{"a":`, InvalidJSON},
		{"trailing data", `{} {}`, InvalidJSON},
		{"null", `null`, "null"},
		{"bool", `true`, "bool"},
		{"number", `-1.5e3`, "number"},
		{"string counts bytes", `"héllo"`, "string(6)"},
		{"escaped string counts decoded bytes", `"a\nb"`, "string(3)"},
		{"object keeps keys", `{"url":"https://a.example/x","n":3,"ok":false,"z":null}`,
			map[string]any{"url": "string(19)", "n": "number", "ok": "bool", "z": "null"}},
		{"nested", `{"steps":[{"click":{"ref":"e12"}}]}`,
			map[string]any{"steps": map[string]any{"array": 1, "items": []any{map[string]any{"click": map[string]any{"ref": "string(3)"}}}}}},
		{"empty array", `[]`, map[string]any{"array": 0, "items": []any{}}},
		{"array merges equal shapes", `["aa","bb","cc"]`, map[string]any{"array": 3, "items": []any{"string(2)"}}},
		{"array lists distinct shapes in order", `[1,"a",1,true,null,"bcd"]`,
			map[string]any{"array": 6, "items": []any{"number", "string(1)", "bool"}}},
		{"array of objects by key set", `[{"a":1},{"a":2},{"b":"x"}]`,
			map[string]any{"array": 3, "items": []any{map[string]any{"a": "number"}, map[string]any{"b": "string(1)"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(json.RawMessage(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Summarize(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestDigest(t *testing.T) {
	equal := [][]string{
		{`{"a":1,"b":[true,null]}`, `{ "b" : [ true , null ], "a" : 1 }`, "{\n\t\"b\":[true,null],\n\t\"a\":1\n}"},
		{`"<&>"`, `"\u003c\u0026\u003e"`},
		{`{"x":{"q":"1","p":"2"}}`, `{"x":{"p":"2","q":"1"}}`},
	}
	for _, group := range equal {
		want := Digest(json.RawMessage(group[0]))
		for _, in := range group[1:] {
			if got := Digest(json.RawMessage(in)); got != want {
				t.Errorf("Digest(%s) = %s, want %s (same as %s)", in, got, want, group[0])
			}
		}
	}
	different := []string{`{"a":1}`, `{"a":2}`, `{"a":"1"}`, `{"a":1.0}`, `{"b":1}`, `[1]`, ``, `{`}
	seen := map[string]string{}
	for _, in := range different {
		d := Digest(json.RawMessage(in))
		if other, ok := seen[d]; ok {
			t.Errorf("Digest(%s) == Digest(%s)", in, other)
		}
		seen[d] = in
	}
	// The digest of {} is sha256("{}").
	if got, want := Digest(json.RawMessage(` { } `)), "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"; got != want {
		t.Errorf("Digest({}) = %s, want %s", got, want)
	}
}

func TestOrigins(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"none", `{}`, []string{}},
		{"invalid JSON", `{"url":`, []string{}},
		{"top level", `{"url":"https://Example.COM/path?q=1#f"}`, []string{"https://example.com"}},
		{"nested and deduplicated", `{"url":"https://a.example/1","steps":[{"url":"https://a.example/2"},{"url":"http://b.example:8080/"}]}`,
			[]string{"http://b.example:8080", "https://a.example"}},
		{"default port dropped", `{"url":"https://a.example:443/x"}`, []string{"https://a.example"}},
		{"user info dropped", `{"url":"https://user:pass@a.example/x"}`, []string{"https://a.example"}},
		{"ipv6", `{"url":"http://[::1]:3000/x"}`, []string{"http://[::1]:3000"}},
		{"ipv6 default port", `{"url":"http://[::1]/x"}`, []string{"http://[::1]"}},
		{"browser page", `{"url":"chrome://version"}`, []string{"chrome://version"}},
		{"array under url", `{"url":["https://a.example/x","https://b.example"]}`, []string{"https://a.example", "https://b.example"}},
		{"no host: the scheme alone", `{"url":"about:blank"}`, []string{"about:"}},
		{"file URL: the scheme, never the path", `{"url":"file:///etc/passwd"}`, []string{"file:"}},
		{"file URL in another spelling", `{"url":" FILE:/etc/passwd"}`, []string{"file:"}},
		{"file URL with a host", `{"url":"file://localhost/etc/passwd"}`, []string{"file://localhost"}},
		{"file URL that does not parse", `{"url":"file://[x/etc/passwd"}`, []string{"file:"}},
		{"view-source is the page it loads", `{"url":"view-source:https://a.example/x"}`, []string{"https://a.example"}},
		{"view-source of a file", `{"url":"view-source:file:///etc/passwd"}`, []string{"file:"}},
		{"relative", `{"url":"/path/only"}`, []string{}},
		{"colon in a relative path", `{"url":"a/b:c"}`, []string{}},
		{"not a url key", `{"href":"https://a.example","title":"https://b.example"}`, []string{}},
		{"number under url", `{"url":5}`, []string{}},
		{"unparsable: the scheme alone", `{"url":"http://a b/"}`, []string{"http:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Origins(json.RawMessage(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Origins(%s) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestRequestID(t *testing.T) {
	tests := []struct{ in, want string }{
		{`7`, "7"},
		{`-1.5`, "-1.5"},
		{`"abc"`, "abc"},
		{`null`, ""},
		{``, ""},
		{`{}`, ""},
	}
	for _, tt := range tests {
		if got := RequestID(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("RequestID(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
