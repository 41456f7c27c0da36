package policy

import (
	"encoding/json"
	"fmt"
)

// maxOrigins bounds each origin list. The lists travel to the extension in
// the welcome (host→extension messages are capped at 1 MiB) and are
// scanned on every top-frame navigation of an owned tab.
const maxOrigins = 1000

// maxShownEntry bounds how much of a refused entry an error repeats.
const maxShownEntry = 100

// list reads a JSON array of strings whose first token is tok and hands it
// to the leaf, which checks each entry. A refused entry is named in the
// error with its position: an origin or a folder of the user's is not
// private from the user, and the writer must find the line to fix.
func (d *decoder) list(n *node, path []string, key string, p *Policy, tok any) error {
	if tok != json.Delim('[') {
		return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must be a %s (a JSON array of strings), not %s", key, n.kind, describe(tok))}
	}
	entries := []string{}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.syntax(path, err)
		}
		entry, ok := tok.(string)
		if !ok {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must hold strings, not %s", key, describe(tok))}
		}
		if len(entries) == n.max {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q holds more than %d entries", key, n.max)}
		}
		entries = append(entries, entry)
	}
	// The closing ']'.
	if _, err := d.dec.Token(); err != nil {
		return d.syntax(path, err)
	}
	if i, err := n.list(p, entries); err != nil {
		return &Error{Key: key, Problem: fmt.Sprintf("policy key %q entry %d %q: %v", key, i, shorten(entries[i]), err)}
	}
	return nil
}

func shorten(s string) string {
	if len(s) <= maxShownEntry {
		return s
	}
	return s[:maxShownEntry] + "…"
}
