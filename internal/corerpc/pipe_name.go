package corerpc

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// The Windows transport's names, without a build tag so that their tests
// run on every platform (listen_windows.go uses them).

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
