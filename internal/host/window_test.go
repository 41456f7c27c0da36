package host

import (
	"testing"

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
