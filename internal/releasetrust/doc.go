// Package releasetrust owns installer verification of a signed artifact
// manifest: a JSON list of release artifacts (name, size, SHA-256) with the
// version and channel, a detached ed25519 signature over the manifest's
// exact bytes, the release-trust configuration that says which public keys
// may sign (trust.json, embedded), and the platform signature checks
// (Authenticode on Windows, codesign and Gatekeeper on macOS; none on
// Linux).
//
// It must never trust a manifest when the configuration holds no key (it
// fails closed with ErrNoTrustKey), never read a file the manifest names
// outside the artifact directory, never hold a private key, and never claim
// that a build is published, notarized, store-approved or provenance-backed
// (spec 000: "Do not infer publication, notarization, Authenticode,
// provenance, or store approval from local code").
package releasetrust
