package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Digest returns "sha256:<hex>" of the canonical form of raw (object keys
// sorted, no insignificant whitespace), so equal arguments give equal
// digests however they were formatted. Bytes that are not one JSON value are
// hashed as they are. A digest lets a reader match two requests without the
// log holding their values; short values can still be guessed from it,
// which is why the state directory is owner-only.
func Digest(raw json.RawMessage) string {
	sum := sha256.Sum256(canonical(raw))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func canonical(raw json.RawMessage) []byte {
	v, err := parse(raw)
	if err != nil {
		return raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// Keep <, > and & as themselves: the canonical form should be the
	// caller's text, not an HTML-safe rewrite of it.
	enc.SetEscapeHTML(false)
	// encoding/json sorts map keys, which is the canonical key order.
	if err := enc.Encode(v); err != nil {
		return raw
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
