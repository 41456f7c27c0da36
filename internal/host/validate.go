package host

import (
	"fmt"
	"net/url"
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

// maxURL bounds a navigation target; Chrome itself refuses URLs over 2 MB,
// and no legitimate agent target comes near this.
const maxURL = 32 << 10

// openableSchemes are the schemes browser_open accepts. javascript:, data:,
// blob: and filesystem: are refused: they are script or content injection,
// not navigation targets. Browser-owned schemes open on the tab_only route.
var openableSchemes = map[string]bool{
	"http": true, "https": true, "about": true, "file": true,
	"chrome": true, "chrome-extension": true, "chrome-untrusted": true, "devtools": true, "view-source": true,
}

// checkURL validates a navigation target and returns it normalised.
func checkURL(raw string) (string, *protocol.Error) {
	bad := func(why string) (string, *protocol.Error) {
		return "", protocol.NewError(protocol.CodeInvalidURL, protocol.OutcomeNotStarted,
			fmt.Sprintf("url %s", why), "Pass an absolute http(s) URL, for example https://example.com/.")
	}
	if raw == "" {
		return bad("is required")
	}
	if len(raw) > maxURL {
		return bad(fmt.Sprintf("is longer than %d bytes", maxURL))
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return bad("does not parse: " + err.Error())
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		return bad("has no scheme")
	}
	if !openableSchemes[scheme] {
		return bad(fmt.Sprintf("has scheme %q, which browser_open does not open", scheme))
	}
	if (scheme == "http" || scheme == "https") && u.Host == "" {
		return bad("has no host")
	}
	return u.String(), nil
}
