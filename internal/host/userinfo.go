package host

import "bytes"

// withoutUserinfo drops the user info ("user:password@") of every URL in
// msg, a message from the extension as it came off the native port, so
// that no result, receipt, error or log line carries it. Chrome keeps it:
// observed in Chromium 156, chrome.tabs reports a tab opened at
// http://user:pass@host/ with that URL (its title and the page's own
// document URL leave it out), and the extension quotes the URLs it was given
// in its messages. Page text loses it too: a password is not page content
// an agent needs.
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
		if at := bytes.LastIndexByte(authority, '@'); at >= 0 {
			rest, cut = rest[at+1:], true
		}
	}
	if !cut {
		return msg
	}
	return append(out, rest...)
}
