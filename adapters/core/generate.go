// Package core holds the shared TypeScript Core client of the Pi and OMP
// adapters (src/). The Go here only regenerates its tool definitions from
// the Go registry; it must never hold adapter logic.
package core

//go:generate go run ../../internal/mcpserver/gen -out src/tools.generated.ts
