// Package store owns the host's durable state, STATE/state.db: connections,
// tasks, tab ownership and generations (a revocation's reason is its
// event's receipt), revision floors and idempotency records, in SQLite with
// WAL and full synchronous writes (spec 000 "SQLite state").
//
// It decides nothing about permission and knows no transport: it must never
// import Core RPC, native messaging or MCP, and it never talks to Chrome.
package store
