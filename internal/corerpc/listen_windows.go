package corerpc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os/user"
	"strings"

	"github.com/Microsoft/go-winio"
)

// PipeName derives the named pipe for a state directory: one pipe per state
// directory, as one socket per state directory on Unix.
func PipeName(stateSocketPath string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(stateSocketPath)))
	return `\\.\pipe\agenttab-` + hex.EncodeToString(sum[:8])
}

// securityDescriptor admits only sid, with no inherited entries (P): other
// users, including administrators, get no access to the pipe.
func securityDescriptor(sid string) string {
	return "D:P(A;;GA;;;" + sid + ")"
}

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
