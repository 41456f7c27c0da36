// Package statedir owns the location and the safety of AgentTab's state
// directory: where it is (AGENTTAB_STATE_DIR or the platform default), that
// it exists owner-only, the names of the files inside it, the host lock
// that lets exactly one host serve one directory, and the adapters' claims
// on their private files, which it removes once their task's lifetime is
// long over (adapters_prune.go; by name and age, never by content).
//
// It must never open, read or interpret the files it names (the store,
// audit, policy and transport packages do that), and it must never import
// Core RPC, native messaging or MCP (package protocol, which imports
// nothing, only for the task lifetime).
package statedir
