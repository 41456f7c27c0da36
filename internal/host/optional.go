package host

import (
	"fmt"

	"github.com/agenttab/agenttab/protocol"
)

// optionalCount resolves an optional count with a default (timeout_ms,
// idle_ms, max_chars): absent means def; given, it must be between 1 and
// max. An explicit 0 is refused rather than read as the default, which it
// silently was before issue 9: a caller who sends 0 means something (no
// wait, no text) that the default is not.
func optionalCount(name string, v *int, def, max int, recovery string) (*int, *protocol.Error) {
	if v == nil {
		return &def, nil
	}
	if *v < 1 || *v > max {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			fmt.Sprintf("%s must be between 1 and %d, or omitted for %d; it was %d", name, max, def, *v), recovery)
	}
	return v, nil
}
