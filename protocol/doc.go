// Package protocol is the one vocabulary shared by every AgentTab process:
// the Core RPC methods and their parameters and results, the native
// messages between the host and the extension, error codes, outcomes and
// lifecycle states. The extension's TypeScript types are generated from
// these Go types (internal/tsgen); a test fails when they are stale.
//
// Value lists: every enum type a request carries (a field of a *Params
// type, at any depth) has one list of its values here, next to its
// constants (SnapshotModes, WaitUntils, …, or a table keyed by it such as
// StepRules). The host's checks and the MCP schemas' enums read these
// lists, never copies; enums_test.go fails when a list misses or repeats a
// constant, or such a type has no list.
//
// It must never import any other package of this project, and it holds no
// behaviour beyond validation of its own values.
package protocol

// Version is the protocol version both sides announce in the native
// handshake. A host and an extension with different versions refuse to work
// together rather than guess.
const Version = 1

// NativeHostName is the native-messaging host name registered in the
// browser's host manifest and passed to chrome.runtime.connectNative.
const NativeHostName = "com.agenttab.host"

// MaxHostToExtension is Chrome's cap on one host→extension message. A larger
// message makes Chrome close the port and kill the host (notes/chromium.md),
// so the host refuses to write one.
const MaxHostToExtension = 1 << 20

// MaxExtensionToHost bounds what the host reads in one extension→host
// message. Chrome allows 64 MiB in this direction.
const MaxExtensionToHost = 64 << 20
