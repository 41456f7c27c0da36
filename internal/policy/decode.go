package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Decode parses policy.json bytes strictly: only known keys, each with its
// JSON type, every key at most once, exactly one top-level object and
// nothing after it. Keys that are absent keep their defaults. Errors are
// *Error with an empty Path.
//
// encoding/json's DisallowUnknownFields is not enough: it accepts duplicate
// keys (the last one wins, so a reviewer could read the wrong value), does
// not name the nested key, and accepts null for a bool. Walking the tokens
// against the schema gives all three refusals and a dotted key for each.
func Decode(data []byte) (Policy, error) {
	p := Default()
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(data))}
	// Numbers stay text, so an out-of-range number is a type error on its
	// key rather than a confusing decoder failure.
	d.dec.UseNumber()
	tok, err := d.dec.Token()
	if errors.Is(err, io.EOF) {
		return Policy{}, &Error{Problem: "the file is empty; write {} or delete the file to use the defaults"}
	}
	if err != nil {
		return Policy{}, d.syntax(nil, err)
	}
	if tok != json.Delim('{') {
		return Policy{}, &Error{Problem: fmt.Sprintf("the top level must be a JSON object, not %s", describe(tok))}
	}
	if err := d.object(schema, nil, &p); err != nil {
		return Policy{}, err
	}
	switch tok, err := d.dec.Token(); {
	case errors.Is(err, io.EOF):
		return p, nil
	case err != nil:
		return Policy{}, d.syntax(nil, err)
	default:
		return Policy{}, &Error{Problem: fmt.Sprintf("unexpected %s after the policy object; the file must hold exactly one JSON object", describe(tok))}
	}
}

type decoder struct {
	dec *json.Decoder
}

// object reads the members of an object whose '{' has been consumed.
func (d *decoder) object(n *node, path []string, p *Policy) error {
	seen := make(map[string]bool)
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.syntax(path, err)
		}
		name := tok.(string) // inside an object, More() guarantees a key
		keyPath := append(path[:len(path):len(path)], name)
		key := strings.Join(keyPath, ".")
		if seen[name] {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q appears more than once", key)}
		}
		seen[name] = true
		child, ok := n.fields[name]
		if !ok {
			return &Error{Key: key, Problem: unknownKey(path, name, key)}
		}
		if err := d.value(child, keyPath, key, p); err != nil {
			return err
		}
	}
	// The closing '}'.
	if _, err := d.dec.Token(); err != nil {
		return d.syntax(path, err)
	}
	return nil
}

func (d *decoder) value(n *node, path []string, key string, p *Policy) error {
	tok, err := d.dec.Token()
	if err != nil {
		return d.syntax(path, err)
	}
	if n.fields != nil {
		if tok != json.Delim('{') {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must be an object, not %s", key, describe(tok))}
		}
		return d.object(n, path, p)
	}
	if n.list != nil {
		return d.list(n, path, key, p, tok)
	}
	if n.parse != nil {
		if err := n.parse(p, tok); err != nil {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q %v, not %s", key, err, describe(tok))}
		}
		return nil
	}
	if !n.matches(tok) {
		return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must be a %s, not %s", key, n.kind, describe(tok))}
	}
	n.assign(p, tok)
	return nil
}

// syntax turns a decoder error into an *Error that says where it happened.
func (d *decoder) syntax(path []string, err error) error {
	key := strings.Join(path, ".")
	where := fmt.Sprintf("at byte %d", d.dec.InputOffset())
	if key != "" {
		where += fmt.Sprintf(" (inside %q)", key)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Key: key, Problem: "the JSON ends too early " + where}
	}
	return &Error{Key: key, Problem: fmt.Sprintf("invalid JSON %s: %v", where, err)}
}

// describe names the JSON type of a token for error messages. It never
// echoes string contents: a value may have been pasted from somewhere
// private.
func describe(tok any) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case string:
		return "a string"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// unknownKey describes an unknown key. A flat key such as "audit.enabled"
// that names a real nested key gets a hint, because its message alone would
// read as if a documented key were unknown.
func unknownKey(path []string, name, key string) string {
	problem := fmt.Sprintf("unknown policy key %q", key)
	if !strings.Contains(name, ".") {
		return problem
	}
	parts := append(path[:len(path):len(path)], strings.Split(name, ".")...)
	if !schema.hasDotted(parts) {
		return problem
	}
	example := "..."
	for i := len(parts) - 1; i >= 0; i-- {
		example = fmt.Sprintf("{%q:%s}", parts[i], example)
	}
	return problem + "; write it as nested objects: " + example
}
