package host

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenttab/agenttab/internal/nativemsg"
	"github.com/agenttab/agenttab/protocol"
)

// extensionIDFromOrigin reads the id out of the "chrome-extension://ID/"
// argument Chrome passes to the host.
func extensionIDFromOrigin(origin string) (string, error) {
	const prefix = "chrome-extension://"
	id := strings.TrimSuffix(strings.TrimPrefix(origin, prefix), "/")
	if !strings.HasPrefix(origin, prefix) || id == "" || strings.ContainsAny(id, "/:") {
		return "", fmt.Errorf("not an extension origin: %q", origin)
	}
	return id, nil
}

// handshake reads the extension's hello and answers welcome, with the
// policy the extension enforces (the Origins and LocalFiles of welcome),
// or reject when the version or the extension id do not match. Only an
// accepted hello returns nil.
func handshake(r *nativemsg.Reader, w *nativemsg.Writer, wantExtensionID, hostVersion string, welcome protocol.NativeWelcome) (protocol.NativeHello, error) {
	var hello protocol.NativeHello
	body, err := r.Read()
	if err != nil {
		return hello, fmt.Errorf("handshake: reading hello: %w", err)
	}
	if err := json.Unmarshal(body, &hello); err != nil || hello.Type != protocol.NativeTypeHello {
		return hello, reject(w, protocol.NewError(protocol.CodeInvalidRequest, protocol.OutcomeNotStarted,
			"the first native message must be a hello", "Reload the extension; it sends hello when it connects."))
	}
	if hello.ProtocolVersion != protocol.Version {
		return hello, reject(w, protocol.Fail(protocol.CodeVersionMismatch,
			fmt.Sprintf("the extension speaks protocol %d, this host speaks %d", hello.ProtocolVersion, protocol.Version)))
	}
	if hello.ExtensionID != wantExtensionID {
		return hello, reject(w, protocol.Fail(protocol.CodeWrongExtension,
			fmt.Sprintf("hello from extension %q, but Chrome started the host for %q", hello.ExtensionID, wantExtensionID)))
	}
	welcome.Type, welcome.ProtocolVersion, welcome.HostVersion = protocol.NativeTypeWelcome, protocol.Version, hostVersion
	return hello, w.Write(welcome)
}

func reject(w *nativemsg.Writer, e *protocol.Error) error {
	if err := w.Write(protocol.NativeReject{Type: protocol.NativeTypeReject, Error: *e}); err != nil {
		return fmt.Errorf("handshake refused (%s) and the refusal could not be sent: %w", e, err)
	}
	return fmt.Errorf("handshake refused: %w", e)
}
