package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// A browser_profile call's record names its operation and holds no string
// argument, in its summary, its digest's input or its origins.
func TestRedactProfileKeepsOnlyTheOperation(t *testing.T) {
	args := json.RawMessage(`{"op":"bookmarks_create","title":"canary-title-71","url":"https://canary.example/canary-path",` +
		`"parent_id":"canary-parent","index":2,"canary-key":"x","max_results":5}`)
	red, op := RedactProfile(args)
	if op != "bookmarks_create" {
		t.Errorf("op %q", op)
	}
	text := string(red) + toText(Summarize(red)) + strings.Join(Origins(red), ",")
	if strings.Contains(strings.ToLower(text), "canary") {
		t.Errorf("redacted arguments leak a canary: %s", text)
	}
	sum := Summarize(red).(map[string]any)
	for k, want := range map[string]any{"op": "string(16)", "title": "redacted(15)", "url": "redacted(34)", "index": "number", "redacted_key_1": "redacted(1)"} {
		if sum[k] != want {
			t.Errorf("summary %s = %v, want %v (%v)", k, sum[k], want, sum)
		}
	}
	if len(Origins(red)) != 0 {
		t.Errorf("origins %v from a redacted url", Origins(red))
	}
	// Same lengths, other values: the same digest, so it cannot be used to
	// guess-check a value.
	other, _ := RedactProfile(json.RawMessage(`{"op":"bookmarks_create","title":"XXXXXXXXXXXXXXX","url":"https://xxxxxx.example/xxxxxxxxxxx",` +
		`"parent_id":"xxxxxxxxxxxxx","index":2,"xxxxxxxxxx":"y","max_results":5}`))
	if Digest(red) != Digest(other) {
		t.Errorf("digests differ for arguments of the same shape")
	}
	// An op that is not one is redacted too; so is anything not an object.
	if red, op := RedactProfile(json.RawMessage(`{"op":"canary-op"}`)); op != "" || strings.Contains(string(red), "canary") {
		t.Errorf("unknown op kept: %s %q", red, op)
	}
	if red, _ := RedactProfile(json.RawMessage(`["canary"]`)); strings.Contains(string(red), "canary") {
		t.Errorf("array kept: %s", red)
	}
}

func toText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
