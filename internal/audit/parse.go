package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// parse decodes exactly one JSON value, keeping numbers as their text so
// that Digest sees 1 and 1.0 as the caller wrote them.
func parse(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// RequestID returns the string form of a JSON-RPC id: a string id as its
// text, a number as its literal, and "" for null or a missing id
// (notifications).
func RequestID(id json.RawMessage) string {
	v, err := parse(id)
	if err != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}
