package audit

import (
	"strings"
	"unicode"
)

// ReduceURLs returns s with every absolute URL in it (scheme://…, up to the
// next space, quote or angle bracket) replaced by what Origins keeps of it:
// its origin, or its scheme alone ("file:") when it names no host. No user
// info, path, query or fragment is left. It is for text the host keeps that
// may quote a URL (a receipt's note, an error message), so that what is
// kept of a URL is what the audit keeps of it.
func ReduceURLs(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	rest := s
	for {
		sep := strings.Index(rest, "://")
		if sep < 0 {
			break
		}
		start := sep
		for start > 0 && IsSchemeByte(rest[start-1]) {
			start--
		}
		for start < sep && !isLetter(rest[start]) { // a scheme starts with a letter
			start++
		}
		if start == sep { // "://" without a scheme: not a URL
			b.WriteString(rest[:sep+3])
			rest = rest[sep+3:]
			continue
		}
		end := len(rest)
		if i := strings.IndexFunc(rest[sep+3:], endsURL); i >= 0 {
			end = sep + 3 + i
		}
		o, _ := origin(rest[start:end]) // it starts with a scheme: there is always one
		b.WriteString(rest[:start] + o)
		rest = rest[end:]
	}
	b.WriteString(rest)
	return b.String()
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// IsSchemeByte reports a byte a URL scheme may hold after its first letter
// (RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )).
func IsSchemeByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// endsURL reports a character that cannot be part of a URL in text: white
// space, a control character, a quote or an angle bracket (RFC 3986
// appendix C: the delimiters of URLs in context).
func endsURL(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune("\"'<>`", r)
}
