package host

import (
	"encoding/json"

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
	f.creds.fills = append(f.creds.fills, p)
	return protocol.ExtCredentialFillResult{Filled: true}, nil, true
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
