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
// title; holds a credential value anywhere but a byte slice that the caller
// wipes (values are unquoted straight out of op's output into a fresh
// slice, and op's output buffer is wiped after parsing); matches on titles,
// tags, notes or any field but an item's URLs; writes to disk; or talks to
// anything but the op executable it was given.
package onepassword
