// Package cli holds the agenttab commands, one file per command: the native
// host mode Chrome starts, mcp, install, uninstall, status and demo.
//
// It owns argument parsing and what each command prints. It must never hold
// host or adapter logic itself: commands call the packages that own it.
package cli
