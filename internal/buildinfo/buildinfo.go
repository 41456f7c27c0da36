// Package buildinfo owns the product version that the host, the CLI and the
// MCP adapters report. It must never hold anything else.
package buildinfo

// Version is the product version. The extension's manifest version is
// generated from the same constant (internal/extbuild).
const Version = "0.1.0"
