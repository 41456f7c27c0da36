// Package doctor owns `agenttab doctor`'s diagnosis: the checks, their
// order, their stable ids and each finding's exact fix. It reads the
// machine (the browser finder, the profiles' Preferences, the host
// manifests through internal/install's read-only answers, the state
// directory's modes, policy.json through internal/policy, host.log) and
// asks a running host for its status through a function the caller passes
// (Core RPC's status, which creates no task).
//
// It must never write, create, chmod or delete anything (a diagnosis that
// repairs hides what it found; statedir.Ensure is not called here), never
// start a browser or the host, never print a page's data (host.log carries
// none; its lines are capped anyway), and never import the host, store,
// audit, native messaging or MCP packages (internal/layering).
package doctor
