// Package audit owns the local audit log, STATE/audit.jsonl: the record
// schema, the append-only owner-only file, and the reductions that turn
// arguments and results into structure (summaries, digests, origins) so that
// no raw value is ever written (spec 000 "Local audit data").
//
// It must never write a raw argument or result value, and it must never
// import Core RPC, native messaging or MCP: callers hand it records.
package audit
