package onepassword

import (
	"bytes"
)

// Kind is what went wrong with op, as the broker tells the agent: each
// kind answers needs_user (spec 000) with its own recovery.
type Kind int

const (
	// KindProvider: op failed for another reason (an item that vanished,
	// a network error, output the broker does not read).
	KindProvider Kind = iota
	// KindNotInstalled: no op executable (PATH or one_password.executable).
	KindNotInstalled
	// KindSignedOut: op has no account signed in ("You are not currently
	// signed in").
	KindSignedOut
	// KindAuthorization: the user dismissed or let expire the 1Password
	// app's authorization prompt ("authorization prompt dismissed").
	KindAuthorization
	// KindTimeout: op did not answer within the Client's timeout (it was
	// waiting for an authorization nobody gave).
	KindTimeout
	// KindUnsupported: the item is not a Login item, or lacks the field.
	KindUnsupported
)

// Error is an op failure in the broker's own words: never op's stderr.
type Error struct {
	Kind   Kind
	detail string
}

func (e *Error) Error() string {
	if e.detail != "" {
		return e.detail
	}
	switch e.Kind {
	case KindNotInstalled:
		return "the 1Password CLI (op) is not installed where AgentTab looks (one_password.executable, else op on the host's PATH)"
	case KindSignedOut:
		return "the 1Password CLI is not signed in"
	case KindAuthorization:
		return "the 1Password app's authorization prompt was dismissed or expired"
	case KindTimeout:
		return "1Password did not answer in time (its authorization prompt may be waiting for the user)"
	case KindUnsupported:
		return "the 1Password item is not a Login item with that field"
	}
	return "the 1Password CLI failed"
}

// classify reads op's stderr (CLI 2.x writes "[ERROR] 2024/01/23 12:34:56
// <message>" and exits 1) for the failures the broker tells apart. The
// phrases are op 2.x's own; anything else is a provider failure.
func classify(stderr []byte) *Error {
	low := bytes.ToLower(stderr)
	has := func(phrases ...string) bool {
		for _, p := range phrases {
			if bytes.Contains(low, []byte(p)) {
				return true
			}
		}
		return false
	}
	defer Wipe(low)
	switch {
	case has("not currently signed in", "no accounts configured", "account is not signed in", "session expired"):
		return &Error{Kind: KindSignedOut}
	case has("authorization prompt dismissed", "authorization timeout", "authorization was denied", "connecting to desktop app"):
		return &Error{Kind: KindAuthorization}
	case has("isn't an item"):
		return &Error{Kind: KindProvider, detail: "the 1Password item is no longer there"}
	}
	return &Error{Kind: KindProvider}
}

// KindOf is err's Kind (KindProvider for an error that is not an *Error).
func KindOf(err error) Kind {
	if e, ok := err.(*Error); ok {
		return e.Kind
	}
	return KindProvider
}
