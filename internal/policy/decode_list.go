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

// originList reads a list of origin entries whose first token is tok. A
// refused entry is named in the error with its position: an origin is not
// private, and the writer must find the line to fix.
func (d *decoder) originList(n *node, path []string, key string, p *Policy, tok any) error {
	if tok != json.Delim('[') {
		return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must be a %s (a JSON array of strings), not %s", key, n.kind, describe(tok))}
	}
	entries := []Origin{}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.syntax(path, err)
		}
		entry, ok := tok.(string)
		if !ok {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q must hold strings, not %s", key, describe(tok))}
		}
		if len(entries) == maxOrigins {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q holds more than %d entries", key, maxOrigins)}
		}
		o, err := ParseOrigin(entry)
		if err != nil {
			return &Error{Key: key, Problem: fmt.Sprintf("policy key %q entry %d %q: %v", key, len(entries), shorten(entry), err)}
		}
		entries = append(entries, o)
	}
	// The closing ']'.
	if _, err := d.dec.Token(); err != nil {
		return d.syntax(path, err)
	}
	n.list(p, entries)
	return nil
}

func shorten(s string) string {
	if len(s) <= maxShownEntry {
		return s
	}
	return s[:maxShownEntry] + "…"
}
