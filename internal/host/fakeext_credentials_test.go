package host

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/agenttab/agenttab/protocol"
)

// credFake is the fake extension's credential_fill: it keeps what it was
// sent (values included: test memory only) and answers filled.
type credFake struct {
	fills []protocol.ExtCredentialFillParams
}

func (f *fakeExtension) credentialHook(method string, params json.RawMessage) (any, *protocol.Error, bool) {
	if method != protocol.NativeCredentialFill {
		return nil, nil, false
	}
	var p protocol.ExtCredentialFillParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, protocol.Fail(protocol.CodeInvalidParams, err.Error()), true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// As credentials/fill.ts: the token's origin must be the tab's, as
	// Chrome reports it, one trailing dot off the host.
	if tab, ok := f.tabs[p.TabID]; !ok || tabOrigin(tab.URL) != p.Origin {
		return nil, protocol.Fail(protocol.CodeCredentialTokenInvalid, "the tab is no longer on the origin the token was made for"), true
	}
	f.creds.fills = append(f.creds.fills, p)
	return protocol.ExtCredentialFillResult{Filled: true}, nil, true
}

// tabOrigin is the extension's originOf (credentials/fill.ts): the URL's
// origin (scheme, host, a port other than the scheme's default), with one
// trailing dot taken off the host ("https://bank.com./" is bank.com).
func tabOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" && !(u.Scheme == "http" && port == "80") && !(u.Scheme == "https" && port == "443") {
		host += ":" + port
	}
	return u.Scheme + "://" + host
}

// credentialFills returns what credential_fill was sent, in order.
func (f *fakeExtension) credentialFills() []protocol.ExtCredentialFillParams {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]protocol.ExtCredentialFillParams(nil), f.creds.fills...)
}

// goesTo moves a tab to url at its next page revision (revisions_test.go
// navigates, with a new URL).
func (f *fakeExtension) goesTo(tabID int, url string) int64 {
	f.mu.Lock()
	f.tabs[tabID].URL = url
	f.mu.Unlock()
	return f.navigates(tabID)
}
