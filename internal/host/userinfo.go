package host

import (
	"bytes"

	"github.com/agenttab/agenttab/internal/audit"
)

// withoutUserinfo drops the user info ("user:password@") of every URL in
// msg, a message from the extension as it came off the native port, so
// that no result, receipt, error or log line carries it. Chrome keeps it:
// observed in Chromium 156, chrome.tabs reports a tab opened at
// http://user:pass@host/ with that URL (its title and the page's own
// document URL leave it out), and the extension quotes the URLs it was given
// in its messages. Page text loses it too: a password is not page content
// an agent needs.
//
// What counts as a credential (credential): any user info of a web URL
// (http, https, ws, wss, ftp: a bare user there is often a token), and user
// info with a password elsewhere; a bare user of another scheme is an
// account name that belongs to the address (ssh://git@host/repo.git, which
// an agent may need to copy exactly).
//
// The authority is read up to the first '/', '?', '#', white space, quote
// or backslash, so the cut never crosses a JSON string or an escape; user
// info written with JSON escapes would be left as it is (JSON.stringify
// escapes none of its characters).
func withoutUserinfo(msg []byte) []byte {
	if !bytes.Contains(msg, []byte("@")) {
		return msg
	}
	var out []byte
	cut := false
	rest := msg
	for {
		i := bytes.Index(rest, []byte("://"))
		if i < 0 {
			break
		}
		out = append(out, rest[:i+3]...)
		rest = rest[i+3:]
		authority := rest
		if end := bytes.IndexAny(authority, "/?#\"\\ \t\r\n"); end >= 0 {
			authority = authority[:end]
		}
		if at := bytes.LastIndexByte(authority, '@'); at >= 0 && credential(out[:len(out)-3], authority[:at]) {
			rest, cut = rest[at+1:], true
		}
	}
	if !cut {
		return msg
	}
	return append(out, rest...)
}

// credentialSchemes are the schemes whose user info is always cut.
var credentialSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true}

// credential reports whether userinfo, written after before's trailing
// scheme and "://", is to be cut.
func credential(before, userinfo []byte) bool {
	if bytes.IndexByte(userinfo, ':') >= 0 {
		return true
	}
	start := len(before)
	for start > 0 && audit.IsSchemeByte(before[start-1]) {
		start--
	}
	return credentialSchemes[string(bytes.ToLower(before[start:]))]
}
