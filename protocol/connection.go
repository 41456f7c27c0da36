package protocol

// Core connection bounds (issue 9: one client must not exhaust the host).
// The host refuses or ends a connection with one of these as a JSON-RPC
// error whose id is null, written before it closes the connection; the
// bounds themselves are internal/corerpc's (limits.go).

// CodeTooManyConnections: the host already serves as many Core
// connections as it admits; this one was refused before a byte of it was
// read, so nothing ran.
const CodeTooManyConnections ErrorCode = "too_many_connections"

// CodeConnectionIdle: the host closed a connection that had no request in
// flight and sent none for the idle timeout, or, at the connection limit,
// for the longest of all to make room for a new one. Nothing written to it after
// that ran; its task stays resumable with its capability.
const CodeConnectionIdle ErrorCode = "connection_idle"
