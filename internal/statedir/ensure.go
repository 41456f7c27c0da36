package statedir

import (
	"errors"
	"fmt"
	"os"
)

// Ensure creates dir owner-only (0700) if it is missing, and makes an
// existing one owner-only. Everything under it is private: state.db holds
// task ownership and idempotency records, audit.jsonl holds origins and
// digests, and core.sock admits whoever can reach it.
func Ensure(dir string) error {
	if dir == "" {
		return errors.New("state directory: empty path")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("state directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("state directory %s is not a directory", dir)
	}
	return secure(dir, fi)
}

// OwnerError says that the state directory belongs to another user. Only
// Unix checks the owner; the type exists everywhere so callers can match it.
type OwnerError struct {
	Dir      string
	OwnerUID int
	UID      int
}

func (e *OwnerError) Error() string {
	return fmt.Sprintf("state directory %s is owned by uid %d, not by the current user (uid %d); "+
		"AgentTab keeps private state there and refuses a directory another user controls: "+
		"set AGENTTAB_STATE_DIR to a directory you own, or fix its owner", e.Dir, e.OwnerUID, e.UID)
}
