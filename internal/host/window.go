package host

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agenttab/agenttab/protocol"
)

// textWindow cuts [start, start+max) out of text, in characters (runes), and
// says what it covers. With find, the window instead starts at the line
// holding the first case-insensitive match at or after start.
func textWindow(text string, start, max int, find string) (string, protocol.Coverage, *bool) {
	runes := []rune(text)
	total := len(runes)
	start = min(start, total)
	var found *bool
	if find != "" {
		pos := indexFoldRunes(runes[start:], find)
		hit := pos >= 0
		found = &hit
		if !hit {
			return "", protocol.Coverage{Start: start, End: start, Total: total}, found
		}
		pos += start
		// Back up to the start of the line, so the match is seen in its
		// context (its role, its ref).
		for pos > 0 && runes[pos-1] != '\n' {
			pos--
		}
		start = pos
	}
	end := min(start+max, total)
	return string(runes[start:end]), protocol.Coverage{Start: start, End: end, Total: total}, found
}

// indexFoldRunes is a case-insensitive search returning a rune index.
// unicode.ToLower maps one rune to one rune, so rune positions in the
// lowered text are positions in the original.
func indexFoldRunes(runes []rune, sub string) int {
	lower := make([]rune, len(runes))
	for i, r := range runes {
		lower[i] = unicode.ToLower(r)
	}
	hay := string(lower)
	i := strings.Index(hay, strings.Map(unicode.ToLower, sub))
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(hay[:i])
}
