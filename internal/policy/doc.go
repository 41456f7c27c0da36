// Package policy owns the local managed policy, STATE/policy.json: its keys,
// their defaults, the strict reading that makes the host fail closed on a
// file it does not fully understand or that someone else could have
// written, and what its origin lists admit (admit.go). Its local folders
// (local_files.allowed_roots) are only read here: what they admit needs
// the file system and the state directory, and the host decides it
// (internal/host/localfiles.go).
//
// It must never write the policy file (only the user does), and it must
// never import Core RPC, native messaging or MCP: the host reads the policy
// once at start and passes the values on.
package policy
