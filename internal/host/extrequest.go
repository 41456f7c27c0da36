package host

import (
	"encoding/json"

	"github.com/agenttab/agenttab/protocol"
)

// answerExtension serves the extension's requests to the host. There is
// one (protocol/localfiles.go): may this file: request of an owned tab's
// page load? The extension stops what is refused. A refusal is logged
// without the path, like the message it carries.
func (h *Host) answerExtension(method string, params json.RawMessage) (any, *protocol.Error) {
	if method != protocol.NativeLocalFile {
		return nil, protocol.Fail(protocol.CodeUnknownMethod, "the host has no extension request "+method)
	}
	var p protocol.LocalFileParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"local_file params do not decode: "+err.Error(), protocol.RecoveryUpdate)
	}
	if _, perr := h.local.admit(p.URL); perr != nil {
		h.log.Printf("local file: refused a file: request of a page: %s", perr.Message)
		return nil, perr
	}
	return protocol.LocalFileResult{Admitted: true}, nil
}
