package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// maxArrayShapes bounds the distinct element shapes an array summary lists.
const maxArrayShapes = 3

// InvalidJSON is the summary of bytes that are not one JSON value.
const InvalidJSON = "invalid_json"

// Summarize returns the structure of raw without its values: objects keep
// their keys (keys are structure) with each value summarised; strings
// become "string(N)" with N the length in bytes; numbers "number"; booleans
// "bool"; null "null"; arrays {"array": N, "items": [up to three distinct
// element shapes]}. Empty input (no arguments) gives nil.
func Summarize(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	v, err := parse(raw)
	if err != nil {
		return InvalidJSON
	}
	return summarize(v)
}

func summarize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = summarize(e)
		}
		return out
	case []any:
		items := []any{}
		seen := map[string]bool{}
		for _, e := range v {
			if len(items) == maxArrayShapes {
				break
			}
			s := summarize(e)
			// Shapes are compared by their JSON; maps marshal with sorted
			// keys, so equal shapes give equal text.
			key, _ := json.Marshal(s)
			if !seen[string(key)] {
				seen[string(key)] = true
				items = append(items, s)
			}
		}
		return map[string]any{"array": len(v), "items": items}
	case string:
		if redactedForm.MatchString(v) {
			return v // RedactProfile's marker, which holds the length already
		}
		return fmt.Sprintf("string(%d)", len(v))
	case json.Number:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	// parse produces only the types above.
	return fmt.Sprintf("unknown(%T)", v)
}
