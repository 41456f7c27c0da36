package corerpc

// Cred is a peer's OS identity as the kernel reports it. UID is -1 when it
// could not be read (and such a peer is refused).
type Cred struct {
	UID int
	PID int
}
