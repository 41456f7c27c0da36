package policy

import (
	"encoding/json"
	"errors"
	"fmt"
)

// node is one level of the policy schema. An object node lists its keys; a
// leaf node names its JSON type and stores a decoded value into the Policy.
// The schema is the single list of accepted keys: anything not in it is
// refused, so a key from a newer AgentTab (or a typo) can never be ignored
// silently.
type node struct {
	fields map[string]*node

	// Leaves only.
	kind   string // the expected JSON type, as named in errors
	assign func(p *Policy, v any)
	// list is set, instead of assign, for a leaf that holds a JSON array
	// of strings (decode_list.go): it checks each entry and stores them
	// all, or returns the position of the first bad one and why.
	list func(p *Policy, entries []string) (bad int, err error)
	// max bounds how many entries a list leaf holds.
	max int
	// parse is set, instead of assign, for a leaf whose value has bounds
	// beyond its JSON type: it stores the value or says what is wrong
	// (completing "policy key K …"), never echoing a string's contents.
	parse func(p *Policy, v any) error
}

func boolLeaf(set func(p *Policy, v bool)) *node {
	return &node{kind: "boolean", assign: func(p *Policy, v any) { set(p, v.(bool)) }}
}

func originsLeaf(set func(p *Policy, v []Origin)) *node {
	return &node{kind: "list of origins", max: maxOrigins, list: func(p *Policy, entries []string) (int, error) {
		origins := make([]Origin, 0, len(entries))
		for i, e := range entries {
			o, err := ParseOrigin(e)
			if err != nil {
				return i, err
			}
			origins = append(origins, o)
		}
		set(p, origins)
		return 0, nil
	}}
}

func rootsLeaf(set func(p *Policy, v []string)) *node {
	return &node{kind: "list of absolute folder paths", max: maxRoots, list: func(p *Policy, entries []string) (int, error) {
		for i, e := range entries {
			if err := checkRoot(e); err != nil {
				return i, err
			}
		}
		set(p, entries)
		return 0, nil
	}}
}

// intLeaf is a whole number from min to max.
func intLeaf(min, max int64, set func(p *Policy, v int64)) *node {
	return &node{kind: "number", parse: func(p *Policy, v any) error {
		// The decoder keeps numbers as written (UseNumber).
		num, ok := v.(json.Number)
		n, err := num.Int64()
		if !ok || err != nil || n < min || n > max {
			return fmt.Errorf("must be a whole number from %d to %d", min, max)
		}
		set(p, n)
		return nil
	}}
}

// executableLeaf is an absolute file path (checkRoot's rules).
func executableLeaf(set func(p *Policy, v string)) *node {
	return &node{kind: "string", parse: func(p *Policy, v any) error {
		s, ok := v.(string)
		if !ok {
			return errors.New("must be a string")
		}
		if err := checkRoot(s); err != nil {
			return fmt.Errorf("must be an absolute path: %w", err)
		}
		set(p, s)
		return nil
	}}
}

// schema mirrors Policy.
var schema = &node{fields: map[string]*node{
	"audit": {fields: map[string]*node{
		"enabled": boolLeaf(func(p *Policy, v bool) { p.Audit.Enabled = v }),
	}},
	"developer_mode": {fields: map[string]*node{
		"enabled": boolLeaf(func(p *Policy, v bool) { p.DeveloperMode.Enabled = v }),
	}},
	"origins": {fields: map[string]*node{
		"allowed": originsLeaf(func(p *Policy, v []Origin) { p.Origins.Allowed = v }),
		"denied":  originsLeaf(func(p *Policy, v []Origin) { p.Origins.Denied = v }),
	}},
	"local_files": {fields: map[string]*node{
		"allowed_roots": rootsLeaf(func(p *Policy, v []string) { p.LocalFiles.AllowedRoots = v }),
	}},
	"one_password": {fields: map[string]*node{
		"enabled":        boolLeaf(func(p *Policy, v bool) { p.OnePassword.Enabled = v }),
		"executable":     executableLeaf(func(p *Policy, v string) { p.OnePassword.Executable = v }),
		"max_candidates": intLeaf(MinOnePasswordLimit, MaxOnePasswordLimit, func(p *Policy, v int64) { p.OnePassword.MaxCandidates = int(v) }),
		"max_attempts":   intLeaf(MinOnePasswordLimit, MaxOnePasswordLimit, func(p *Policy, v int64) { p.OnePassword.MaxAttempts = int(v) }),
	}},
	"uploads": {fields: map[string]*node{
		"dlp_allowed_roots": rootsLeaf(func(p *Policy, v []string) { p.Uploads.DLPAllowedRoots = v }),
		"max_bytes":         intLeaf(1, MaxUploadMaxBytes, func(p *Policy, v int64) { p.Uploads.MaxBytes = v }),
	}},
}}

// matches reports whether the value token tok has this leaf's type.
func (n *node) matches(tok any) bool {
	switch n.kind {
	case "boolean":
		_, ok := tok.(bool)
		return ok
	}
	return false
}

// hasDotted reports whether a dotted key such as "audit.enabled" names a
// leaf of the schema, to explain a key written flat instead of nested.
func (n *node) hasDotted(path []string) bool {
	cur := n
	for _, k := range path {
		if cur.fields == nil {
			return false
		}
		next, ok := cur.fields[k]
		if !ok {
			return false
		}
		cur = next
	}
	return cur.fields == nil
}
