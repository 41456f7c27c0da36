// Package buildinfo owns the product version that the host, the CLI and the
// MCP adapters report, and the words that call it a prerelease. It must
// never hold anything else, and never claim a release, a signature, a store
// listing or a package (spec 000: "2.0.0-rc.1 is prerelease and
// unreleased").
package buildinfo

import "strings"

// Version is the product version, a semantic version. The extension's
// manifest "version" and "version_name" are derived from it
// (extension/version.go); nothing else spells it.
const Version = "2.0.0-rc.1"

// PrereleaseLabel is what every surface that shows the version appends to a
// prerelease version.
const PrereleaseLabel = "prerelease"

// Prerelease reports whether v carries a semantic-version prerelease part
// ("2.0.0-rc.1"). Build metadata ("+…") alone does not make a prerelease.
func Prerelease(v string) bool {
	core, _, _ := strings.Cut(v, "+")
	return strings.Contains(core, "-")
}

// Describe is v as a person should read it: "2.0.0-rc.1 (prerelease)" for a
// prerelease, v unchanged otherwise.
func Describe(v string) string {
	if Prerelease(v) {
		return v + " (" + PrereleaseLabel + ")"
	}
	return v
}

// Core is v without its prerelease and build parts ("2.0.0"): Chrome's
// manifest "version" accepts only one to four dot-separated integers.
func Core(v string) string {
	core, _, _ := strings.Cut(v, "+")
	core, _, _ = strings.Cut(core, "-")
	return core
}
