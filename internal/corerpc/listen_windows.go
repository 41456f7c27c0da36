package corerpc

import (
	"context"
	"fmt"
	"net"
	"os/user"

	"github.com/Microsoft/go-winio"
)

// Listen creates the user-only named pipe for the state directory.
func Listen(path string) (net.Listener, error) {
	u, err := user.Current()
	if err != nil {
		return nil, fmt.Errorf("core rpc: current user: %w", err)
	}
	return winio.ListenPipe(PipeName(path), &winio.PipeConfig{SecurityDescriptor: securityDescriptor(u.Uid)})
}

// Dial connects to the state directory's pipe.
func Dial(ctx context.Context, path string) (net.Conn, error) {
	return winio.DialPipeContext(ctx, PipeName(path))
}

// PeerCred on Windows: the pipe's security descriptor already admits only
// the current user, so every peer that connected is that user.
func PeerCred(net.Conn) (Cred, error) { return Cred{UID: 0}, nil }

// SelfUID matches PeerCred's answer for an admitted peer.
func SelfUID() int { return 0 }
