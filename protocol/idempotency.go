package protocol

// IsUUIDv7 says whether key is an idempotency key Core accepts: a UUIDv7
// (RFC 9562 §5.7: version 7, variant 10) in its canonical text form, 36
// characters with hyphens at 8, 13, 18 and 23 and lower-case hex digits
// (RFC 9562 §4's output form). Spec 000: "Mutations use UUIDv7 idempotency
// keys". One UUID has one spelling, so a key is compared as the bytes sent.
// The host refuses any other key (internal/host/idemkey.go); the MCP
// adapter sends an agent's key as it is only when it is one, and maps any
// other (internal/mcpserver/agentkeys.go).
func IsUUIDv7(key string) bool {
	if len(key) != 36 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return key[14] == '7' && (key[19] == '8' || key[19] == '9' || key[19] == 'a' || key[19] == 'b')
}
