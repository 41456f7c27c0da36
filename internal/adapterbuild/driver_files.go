package adapterbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
)

// DriverCapability is the capability file the test driver (adapter
// "conf") claims first for an agent session: adapters/core/src/claim.ts
// binds an adapter's private files to the session as
// STATE/adapters/<adapter>-<first 16 hex of SHA-256(session)>.capability.
// The tests that use it fail when either side changes the rule.
func DriverCapability(stateDir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(stateDir, "adapters", "conf-"+hex.EncodeToString(sum[:])[:16]+".capability")
}
