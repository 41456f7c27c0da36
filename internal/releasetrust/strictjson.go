package releasetrust

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodeStrict decodes data into v: exactly one JSON value, no member
// unknown to v, no member twice in any object. encoding/json alone takes
// the last of two equal keys, so a reviewer reading the first would be
// misled; a signed document must mean one thing.
func decodeStrict(data []byte, v any) error {
	if err := noDuplicateKeys(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON value")
	}
	return nil
}

// noDuplicateKeys walks data's tokens and refuses an object that names a
// member twice.
func noDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	// Each open container: its seen keys (nil for an array), and whether
	// the next string token in an object is a key.
	type frame struct {
		seen    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.seen != nil && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k, _ := tok.(string)
			if top.seen[k] {
				return fmt.Errorf("member %q appears twice in one object", k)
			}
			top.seen[k] = true
			top.wantKey = false
			continue
		}
		if top != nil && top.seen != nil {
			top.wantKey = true // this token is the value; a key follows
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{seen: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}
