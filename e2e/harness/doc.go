// Package harness is the end-to-end test bench: it builds the agenttab
// binary, installs it into a fresh state directory and a fresh Chromium
// profile, launches real Chromium with the real extension (which starts the
// real host through native messaging), waits until the host says it is
// ready, and gives tests an MCP client as the agent plus an independent view
// of Chrome's own state read from the extension's service worker. Tests and
// benchmarks in e2e/ share it, so it lives in non-test files.
//
// It must never skip: a machine without a browser fails with the command
// that installs one. It must never touch global state (no per-user
// manifests, no default profile), and it reads Chrome's state only through
// chrome.* in the service worker, never through the product's own answers,
// so an assertion cannot agree with a bug.
package harness
