package host

import (
	"github.com/google/uuid"

	"github.com/agenttab/agenttab/protocol"
)

// coreIdempotencyKey resolves a mutation's idempotency key on Core RPC.
// Spec 000: "Mutations use UUIDv7 idempotency keys", and every mutation
// has a durable started record before anything reaches Chrome, so:
//   - a client's key must be a UUIDv7 in its canonical lower-case text
//     form (protocol.IsUUIDv7). One UUID then has one spelling, so every
//     lookup of a key (the record itself, the revision check's
//     IdempotencyKeyUsed) compares the bytes the client sent, with no
//     normalization to keep in step;
//   - a request without a key gets a UUIDv7 the host makes, which records
//     it like any other (nobody can retry with it, but a crash leaves the
//     started record that says the call may have run).
//
// Agents do not write UUIDv7s: the MCP adapter maps an agent's own short
// key to one (internal/mcpserver/agentkeys.go).
func coreIdempotencyKey(given string) (string, *protocol.Error) {
	if given == "" {
		return uuid.Must(uuid.NewV7()).String(), nil
	}
	if !protocol.IsUUIDv7(given) {
		return "", protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"idempotency_key must be a UUIDv7 in lower case (RFC 9562: 36 characters such as 0190b2a0-0000-7000-8000-000000000001, version digit 7)",
			"Pass a UUIDv7 you made for this call and repeat it only to retry the same call, or omit idempotency_key and the host makes one.")
	}
	return given, nil
}
