// Package store owns the host's durable state, STATE/state.db: connections,
// tasks, tab ownership and generations, revision floors, idempotency
// records and event receipts, in SQLite with WAL and full synchronous
// writes (spec 000 "SQLite state").
//
// It decides nothing about permission and knows no transport: it must never
// import Core RPC, native messaging or MCP, and it never talks to Chrome.
package store
