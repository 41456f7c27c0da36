package protocol

// Core connection bounds (issue 9: one client must not exhaust the host).
// The host refuses or ends a connection with one of these as a JSON-RPC
// error whose id is null, written before it closes the connection; the
// bounds themselves are internal/corerpc's (limits.go).

// CodeTooManyConnections: the host already serves as many Core
// connections as it admits; this one was refused before a byte of it was
// read, so nothing ran.
const CodeTooManyConnections ErrorCode = "too_many_connections"

// RecoveryTooManyConnections is too_many_connections' recovery text.
const RecoveryTooManyConnections = "Close Core clients you no longer use (each `agenttab mcp` and each HTTP MCP session holds one connection), then retry: the host refuses a new connection only while every one it serves is busy or was used moments ago."

// CodeConnectionIdle: the host closed a connection that had no request in
// flight and sent none for the idle timeout, or, at the connection limit,
// for the longest of all to make room for a new one. Nothing written to it after
// that ran; its task stays resumable with its capability.
const CodeConnectionIdle ErrorCode = "connection_idle"

// RecoveryConnectionIdle is connection_idle's recovery text.
const RecoveryConnectionIdle = "Connect again; resume the task with its capability (`agenttab mcp` does both by itself). Nothing sent on the closed connection ran."
