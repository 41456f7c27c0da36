package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/agenttab/agenttab/protocol"
)

// browser_profile's arguments are the profile's private data: search
// text, bookmark titles, URLs and folder names. Spec 000 "Local audit
// data": for browser_profile the record names the operation, and every
// other string argument is replaced by a length-only marker before the
// argument summary, digest and target origins are computed. So the
// digest cannot be used to guess-check a title or URL, and a url argument
// yields no target origin.

// redactedForm is a length-only marker; Summarize keeps it as it is (it
// carries the length the summary would have given the value).
var redactedForm = regexp.MustCompile(`^redacted\([0-9]+\)$`)

func redacted(s string) string { return fmt.Sprintf("redacted(%d)", len(s)) }

// RedactProfile returns browser_profile's arguments with every string
// replaced by a length-only marker, save a top-level op that names a
// protocol.ProfileRules operation, and that op ("" when there is none).
// A key that is no ProfileParams field is renamed too (keys are otherwise
// kept as structure, and an agent can put anything in one). Arguments that
// are not a JSON object are replaced whole.
func RedactProfile(raw json.RawMessage) (json.RawMessage, string) {
	if len(raw) == 0 {
		return raw, ""
	}
	v, err := parse(raw)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		return json.RawMessage(`"redacted(arguments)"`), ""
	}
	op := ""
	if s, ok := obj["op"].(string); ok {
		if _, known := protocol.ProfileRules[protocol.ProfileOp(s)]; known {
			op = s
		}
	}
	out := make(map[string]any, len(obj))
	n := 0
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		name := k
		if k != "op" && !slices.Contains(protocol.ProfileFields, protocol.ProfileField(k)) {
			n++
			name = fmt.Sprintf("redacted_key_%d", n)
		}
		out[name] = redactStrings(obj[k])
	}
	if op != "" {
		out["op"] = op
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage(`"redacted(arguments)"`), ""
	}
	return b, op
}

func redactStrings(v any) any {
	switch v := v.(type) {
	case map[string]any:
		// Nested keys are never ProfileParams fields: they are agent text.
		out := make(map[string]any, len(v))
		for i, k := range slices.Sorted(maps.Keys(v)) {
			out[fmt.Sprintf("redacted_key_%d", i+1)] = redactStrings(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactStrings(e)
		}
		return out
	case string:
		return redacted(v)
	}
	return v
}
