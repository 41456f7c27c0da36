package host

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

func TestTextWindow(t *testing.T) {
	text := "- heading \"Héllo\"\n- button \"Send\" [ref=e3]\n- link \"Next\" [ref=e4]\n"
	yes, no := true, false
	for _, tc := range []struct {
		name       string
		start, max int
		find       string
		want       string
		cov        protocol.Coverage
		found      *bool
	}{
		{"head", 0, 10, "", "- heading ", protocol.Coverage{Start: 0, End: 10, Total: 66}, nil},
		{"runes not bytes", 11, 5, "", "Héllo", protocol.Coverage{Start: 11, End: 16, Total: 66}, nil},
		{"past the end", 100, 5, "", "", protocol.Coverage{Start: 66, End: 66, Total: 66}, nil},
		{"find backs up to the line", 0, 24, "SEND", "- button \"Send\" [ref=e3]", protocol.Coverage{Start: 18, End: 42, Total: 66}, &yes},
		{"find after start only", 42, 10, "send", "", protocol.Coverage{Start: 42, End: 42, Total: 66}, &no},
		{"find with accents", 0, 9, "HÉLLO", "- heading", protocol.Coverage{Start: 0, End: 9, Total: 66}, &yes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cov, found := textWindow(text, tc.start, tc.max, tc.find)
			if got != tc.want || cov != tc.cov || !cmp.Equal(found, tc.found) {
				t.Fatalf("got %q %+v %v, want %q %+v %v", got, cov, ptrStr(found), tc.want, tc.cov, ptrStr(tc.found))
			}
		})
	}
}

func ptrStr(b *bool) string {
	if b == nil {
		return "nil"
	}
	if *b {
		return "true"
	}
	return "false"
}

// windowByRunes is the plain definition textWindow must keep: cut the
// text as a slice of runes.
func windowByRunes(text string, start, max int, find string) (string, protocol.Coverage, bool) {
	runes := []rune(text)
	total := len(runes)
	start = min(start, total)
	if find != "" {
		lower := []rune(strings.Map(unicode.ToLower, string(runes[start:])))
		i := strings.Index(string(lower), strings.Map(unicode.ToLower, find))
		if i < 0 {
			return "", protocol.Coverage{Start: start, End: start, Total: total}, false
		}
		pos := start + utf8.RuneCountInString(string(lower)[:i])
		for pos > 0 && runes[pos-1] != '\n' {
			pos--
		}
		start = pos
	}
	end := min(start+max, total)
	return string(runes[start:end]), protocol.Coverage{Start: start, End: end, Total: total}, true
}

func FuzzTextWindow(f *testing.F) {
	f.Add("- heading \"Héllo\"\n- button \"Send\"\n", 3, 10, "send")
	f.Add("ȺȺ\nⱥb", 0, 2, "B")
	f.Add("abc", 1, 0, "")
	f.Add("a\xffb\nc\xe2\x82", 1, 3, "\xff")
	f.Fuzz(func(t *testing.T, text string, start, max int, find string) {
		if start < 0 || max < 0 {
			return
		}
		got, cov, found := textWindow(text, start, max, find)
		want, wantCov, hit := windowByRunes(text, start, max, find)
		// On invalid UTF-8 the window keeps the raw bytes where []rune
		// made U+FFFD; as characters they are the same.
		if string([]rune(got)) != want || cov != wantCov || (find != "" && (found == nil || *found != hit)) {
			t.Fatalf("textWindow(%q, %d, %d, %q) = %q %+v, want %q %+v", text, start, max, find, got, cov, want, wantCov)
		}
	})
}
