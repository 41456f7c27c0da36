// Package host is the AgentTab native-messaging host: the process Chrome
// starts for the extension. It owns the host lifecycle (starting →
// handshaking → reconciling → ready), the native link to the extension, the
// binding of Core connections to tasks, admission of browser work, the
// state database and the audit log for each request.
//
// It must never admit browser work before the handshake and reconciliation
// are done, never let a caller-supplied identifier select a task, never
// address a tab the calling task does not own, never write raw argument
// or result values to audit, and never keep page data (more of a URL than
// its origin, a title, page text) in an idempotency record.
package host
