package host

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agenttab/agenttab/protocol"
)

func checkLen(name, v string, max int) *protocol.Error {
	if len(v) > max || !utf8.ValidString(v) {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			fmt.Sprintf("%s must be valid UTF-8 of at most %d bytes", name, max), "Shorten "+name+".")
	}
	return nil
}

// checkURL validates a navigation target and returns it normalised. A
// local file (issue 9) is passed on as written, only trimmed, for
// Host.checkTarget to decide against local_files.allowed_roots
// (localfiles.go): every caller runs checkTarget next. Its scheme is read
// from the text before parsing, so a file: URL Go cannot parse is still
// a local file, never a mere typo. view-source: is judged by the page it
// would load, and view-source: of a local file is refused here.
func checkURL(raw string) (string, *protocol.Error) {
	bad := func(why string) (string, *protocol.Error) {
		return "", protocol.Fail(protocol.CodeInvalidURL, "url "+why)
	}
	if raw == "" {
		return bad("is required")
	}
	if len(raw) > protocol.MaxURLBytes {
		return bad(fmt.Sprintf("is longer than %d bytes", protocol.MaxURLBytes))
	}
	s := strings.TrimSpace(raw)
	if isFileURL(s) {
		return s, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return bad("does not parse: " + err.Error())
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		return bad("has no scheme")
	}
	// protocol.NavigableSchemes: the one list the extension reads too.
	if !slices.Contains(protocol.NavigableSchemes, scheme) {
		return bad(fmt.Sprintf("has scheme %q, which browser_open does not open", scheme))
	}
	if scheme == "view-source" {
		return checkViewSource(s[len(u.Scheme)+1:])
	}
	if (scheme == "http" || scheme == "https") && u.Host == "" {
		return bad("has no host")
	}
	return u.String(), nil
}

// checkViewSource checks the page a view-source: target would load, which
// must be a target of its own (view-source:file:… shows the file).
func checkViewSource(inner string) (string, *protocol.Error) {
	if scheme, _, _ := strings.Cut(strings.TrimSpace(inner), ":"); strings.EqualFold(scheme, "view-source") {
		return "", protocol.Fail(protocol.CodeInvalidURL, "url nests view-source: inside view-source:")
	}
	if isFileURL(strings.TrimSpace(inner)) {
		return "", protocol.Fail(protocol.CodeLocalFileDenied, "url: "+protocol.LocalFileViewSource)
	}
	target, perr := checkURL(inner)
	if perr != nil {
		perr.Message = "view-source: " + perr.Message
		return "", perr
	}
	return "view-source:" + target, nil
}

// isFileURL reports whether s (trimmed) names a local file: its scheme,
// the text before the first colon, is file in any case.
func isFileURL(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	return ok && strings.EqualFold(scheme, "file")
}
