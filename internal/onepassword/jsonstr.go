package onepassword

import (
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote decodes one JSON string literal into a fresh byte slice, so that
// a value never becomes a Go string the broker cannot wipe (encoding/json
// would decode into a string). raw is a whole literal, quotes included.
func unquote(raw []byte) ([]byte, error) {
	bad := errors.New("not a JSON string")
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, bad
	}
	s := raw[1 : len(raw)-1]
	out := make([]byte, 0, len(s))
	fail := func() ([]byte, error) {
		Wipe(out[:cap(out)])
		return nil, bad
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(s) {
			return fail()
		}
		switch s[i] {
		case '"', '\\', '/':
			out = append(out, s[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(s, i+1)
			if !ok {
				return fail()
			}
			i += 4
			if utf16.IsSurrogate(r) {
				lo, ok := rune(-1), false
				if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					lo, ok = hex4(s, i+3)
				}
				if dec := utf16.DecodeRune(r, lo); ok && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return fail()
		}
	}
	// out never grew past len(s) (escapes only shrink), so no copy was left.
	return out, nil
}

func hex4(s []byte, at int) (rune, bool) {
	if at+4 > len(s) {
		return 0, false
	}
	// By hand, not strconv: a string of the digits would outlive the wipe.
	var r rune
	for _, c := range s[at : at+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
