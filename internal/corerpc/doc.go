// Package corerpc owns the Core RPC transport: JSON-RPC 2.0, one object per
// line, on a user-only local endpoint (a Unix socket in a 0700 directory with
// mode 0600 on Linux and macOS, a named pipe admitting only the current user
// on Windows). It checks each peer's OS user before reading a byte from it,
// gives every connection a host-generated id, decodes and validates
// envelopes, and writes responses. It bounds what clients can make the host
// hold (limits.go): connections, requests in flight per connection (by
// reading no further), idle connections and unread answers.
//
// It decides nothing about tasks, ownership or browser work: that is the
// host's handler. Identity is attached to the connection here; permission is
// decided per handler there. It must never trust an identity a client sends.
package corerpc
