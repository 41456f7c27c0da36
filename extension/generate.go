package extension

// The TypeScript protocol types first, then the bundle that imports them.
// Tests fail when either output is stale (internal/tsgen, internal/extbuild).

//go:generate go run ../internal/tsgen/gen -out src/protocol/generated.ts
//go:generate go run ../internal/extbuild/gen -out dist
