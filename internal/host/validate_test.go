package host

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// explicitTarget is what the host makes of an explicit target without a
// policy: checkURL, then checkTarget, as open and act run them.
func explicitTarget(raw string) (string, *protocol.Error) {
	got, perr := checkURL(raw)
	if perr != nil {
		return got, perr
	}
	return (&Host{}).checkTarget(got)
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		in   string
		want string             // the normalised target, when admitted
		code protocol.ErrorCode // when refused
	}{
		{in: "https://example.com/a?b#c", want: "https://example.com/a?b#c"},
		{in: "  http://127.0.0.1:8080/  ", want: "http://127.0.0.1:8080/"},
		{in: "about:blank", want: "about:blank"},
		{in: "chrome://settings/", want: "chrome://settings/"},
		{in: "view-source:https://example.com/", want: "view-source:https://example.com/"},
		{in: "VIEW-SOURCE:https://example.com/", want: "view-source:https://example.com/"},

		// Issue 9: the local disk, however spelled, without a policy
		// admitting local folders (localfiles_test.go has the rules with).
		{in: "file:///etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "FILE:///etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "File:/etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "file:etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "file://localhost/etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "file://server/share/x", code: protocol.CodeLocalFileDenied},
		{in: "file:///%65tc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "file://[bad/etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: " \tfile:///etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "file:///home/u/.local/state/agenttab/adapters/http-token", code: protocol.CodeLocalFileDenied},
		{in: "view-source:file:///etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "view-source: FILE:/etc/passwd", code: protocol.CodeLocalFileDenied},
		{in: "view-source:view-source:file:///etc/passwd", code: protocol.CodeInvalidURL},
		{in: "view-source:/etc/passwd", code: protocol.CodeInvalidURL},
		{in: "view-source:", code: protocol.CodeInvalidURL},
		{in: "view-source:javascript:alert(1)", code: protocol.CodeInvalidURL},
		{in: "filesystem:file:///x", code: protocol.CodeInvalidURL},
		{in: "fi\tle:///etc/passwd", code: protocol.CodeInvalidURL},
		{in: "//localhost/etc/passwd", code: protocol.CodeInvalidURL},

		{in: "", code: protocol.CodeInvalidURL},
		{in: "javascript:alert(1)", code: protocol.CodeInvalidURL},
		{in: "data:text/html,hi", code: protocol.CodeInvalidURL},
		{in: "https:///nohost", code: protocol.CodeInvalidURL},
	}
	for _, tt := range tests {
		got, perr := explicitTarget(tt.in)
		switch {
		case tt.code == "" && perr != nil:
			t.Errorf("checkURL(%q) = %v, want %q", tt.in, perr, tt.want)
		case tt.code == "" && got != tt.want:
			t.Errorf("checkURL(%q) = %q, want %q", tt.in, got, tt.want)
		case tt.code != "" && (perr == nil || perr.Code != tt.code):
			t.Errorf("checkURL(%q) = %q, %v; want %s", tt.in, got, perr, tt.code)
		case tt.code != "" && (perr.Outcome != protocol.OutcomeNotStarted || perr.Recovery == ""):
			t.Errorf("checkURL(%q) = %+v, want not_started with recovery text", tt.in, perr)
		case tt.code == protocol.CodeLocalFileDenied && strings.Contains(perr.Message, "passwd"):
			t.Errorf("checkURL(%q) message %q repeats the path", tt.in, perr.Message)
		}
	}
}

// FuzzCheckURL: whatever the host admits as an explicit target without a
// policy is a URL of a navigable scheme that names no local file, and
// checking it again gives it back unchanged.
func FuzzCheckURL(f *testing.F) {
	for _, seed := range []string{"https://a.test/", "file:///etc/passwd", "view-source:file:/x", "view-source: https://a.test", "FiLe:x", "about:blank", "chrome://version"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, perr := explicitTarget(raw)
		if perr != nil {
			return
		}
		lower := strings.ToLower(got)
		if strings.HasPrefix(lower, "file:") || strings.HasPrefix(lower, "view-source:file:") {
			t.Fatalf("checkURL(%q) admitted the local file %q", raw, got)
		}
		again, perr := explicitTarget(got)
		if perr != nil || again != got {
			t.Fatalf("checkURL(%q) = %q, which checks again as %q, %v", raw, got, again, perr)
		}
	})
}
