// Package layering holds no code: its tests check the import fences of
// DESIGN.md ("Layering") and that every Go package opens with a doc comment
// saying what it owns, as tailscale's deptest and pkgdoc tests do.
//
// It must never be imported.
package layering
