package host

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// textWindow cuts [start, start+max) out of text, in characters (runes), and
// says what it covers. With find, the window instead starts at the line
// holding the first case-insensitive match at or after start.
//
// It works on byte offsets and counts runes only where it must: turning a
// 127,000-character snapshot into a []rune on every call cost about 2 ms
// (docs/benchmarks.md).
func textWindow(text string, start, max int, find string) (string, protocol.Coverage, *bool) {
	total := utf8.RuneCountInString(text)
	start = min(start, total)
	from := advance(text, 0, start)
	var found *bool
	if find != "" {
		pos := indexFold(text[from:], find)
		hit := pos >= 0
		found = &hit
		if !hit {
			return "", protocol.Coverage{Start: start, End: start, Total: total}, found
		}
		// Back up to the start of the line, so the match is seen in its
		// context (its role, its ref).
		from = strings.LastIndexByte(text[:from+pos], '\n') + 1
		start = utf8.RuneCountInString(text[:from])
	}
	to := advance(text, from, max)
	window := text[from:to]
	return window, protocol.Coverage{Start: start, End: start + utf8.RuneCountInString(window), Total: total}, found
}

// advance returns the byte offset n runes after byte offset from (or the
// end of s).
func advance(s string, from, n int) int {
	i := from
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// indexFold is a case-insensitive search returning a byte offset in s, or
// -1. It lowers rune by rune (unicode.ToLower maps one rune to one rune)
// and keeps where each lowered rune came from, since lowering can change a
// rune's length in bytes.
func indexFold(s, sub string) int {
	var lower strings.Builder
	lower.Grow(len(s))
	origin := make([]int, 0, len(s)+1)
	for i, r := range s {
		n := lower.Len()
		lower.WriteRune(unicode.ToLower(r))
		for range lower.Len() - n {
			origin = append(origin, i)
		}
	}
	origin = append(origin, len(s))
	i := strings.Index(lower.String(), strings.Map(unicode.ToLower, sub))
	if i < 0 {
		return -1
	}
	return origin[i]
}

// maxWindowBytes bounds a window's text once JSON-encoded, so that a Core
// answer fits the line a Core client reads (corerpc.MaxLine) with room for
// the result's other fields. max_chars allows windows of up to
// protocol.MaxMaxChars characters, and a character can take up to six
// bytes in JSON (<, > and & are escaped as \u003c by encoding/json, as are
// control characters): such a window ends early, and its coverage says
// where to go on.
const maxWindowBytes = corerpc.MaxLine * 3 / 4

// fitEncoded returns the longest prefix of window that encoding/json
// writes in at most budget bytes, cut between characters.
func fitEncoded(window string, budget int) string {
	if len(window) <= budget/6 {
		return window // no character takes more than six bytes
	}
	size := 0
	for i, r := range window {
		size += jsonSize(r)
		if size > budget {
			return window[:i]
		}
	}
	return window
}

// jsonSize is how many bytes encoding/json (with its default HTML
// escaping) writes for r inside a string.
func jsonSize(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError:
		return 6
	default:
		return utf8.RuneLen(r)
	}
}
