// Package onepassword is the host's 1Password broker back end (spec 000's
// broker paragraphs; DESIGN.md names it): it runs the 1Password CLI (`op`,
// 2.x) with a bounded timeout, reads Login items and decides which of them
// match a tab's origin.
//
// It owns: the op command lines (CLI 2.x: `op item list --categories Login
// --format json`, `op item get <id> --vault <vault> --format json`), the
// shapes of their JSON, the classification of op's failures (signed out,
// authorization dismissed or timed out, provider error), and the origin
// rule (match.go: the same scheme, host and port, or a recognised
// authentication subdomain of the same registrable domain).
//
// It never: logs, returns or keeps op's output, stderr text or an item's
// title; matches on titles, tags, notes or any field but an item's URLs;
// writes to disk; or talks to anything but the op executable it was given.
//
// Wiping, and where it stops: op's stdout is read from its pipe straight
// into a buffer that zeroes each array it outgrows and is wiped after
// parsing (not through os/exec's io.Copy, whose 32 KiB buffer nobody
// wipes); the fields' raw JSON is wiped; a value is unquoted into a fresh
// byte slice that the caller wipes. Beyond this package the value is a Go
// string in the native message's params (ExtCredentialFillParams.Value)
// and bytes in encoding/json's pooled encode buffer as the host marshals
// that message: neither can be wiped, and both live until the garbage
// collector or the pool reuses them (ARCHITECTURE.md "The 1Password
// broker"). The kernel's pipe buffers are outside any process's reach.
package onepassword
