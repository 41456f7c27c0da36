package releasetrust

import (
	"crypto/ed25519"
	_ "embed"
	"encoding/base64"
	"fmt"
)

// trustJSON is the checked-in release-trust configuration. It holds no key:
// spec 000, "the checked-in release-trust configuration has no development
// or stable public key". A build that trusts a key must change this file,
// in review.
//
//go:embed trust.json
var trustJSON []byte

// Config says which public keys may sign an artifact manifest.
type Config struct {
	// Schema is 1.
	Schema int   `json:"schema"`
	Keys   []Key `json:"keys"`
}

// Key is one trusted ed25519 public key, for one channel.
type Key struct {
	// ID names the key in messages; it is not secret.
	ID string `json:"id"`
	// Channel is the only manifest channel this key may sign
	// ("development", "prerelease", "stable").
	Channel string `json:"channel"`
	// PublicKey is the 32-byte ed25519 public key, standard base64.
	PublicKey string `json:"ed25519_public_key"`
}

// Default is the configuration built into this binary.
func Default() (Config, error) { return ParseConfig(trustJSON) }

// ParseConfig decodes a configuration strictly and checks every key.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	if err := decodeStrict(data, &c); err != nil {
		return Config{}, fmt.Errorf("release-trust configuration: %w", err)
	}
	if c.Schema != 1 {
		return Config{}, fmt.Errorf("release-trust configuration: schema %d, want 1", c.Schema)
	}
	ids := map[string]bool{}
	for _, k := range c.Keys {
		if k.ID == "" || ids[k.ID] {
			return Config{}, fmt.Errorf("release-trust configuration: key id %q is empty or repeated", k.ID)
		}
		ids[k.ID] = true
		if !validChannel(k.Channel) {
			return Config{}, fmt.Errorf("release-trust configuration: key %s: unknown channel %q", k.ID, k.Channel)
		}
		if _, err := k.public(); err != nil {
			return Config{}, fmt.Errorf("release-trust configuration: key %s: %w", k.ID, err)
		}
	}
	return c, nil
}

// Usable fails closed with ErrNoTrustKey when c trusts no key, before any
// file is read.
func (c Config) Usable() error {
	if len(c.Keys) == 0 {
		return ErrNoTrustKey
	}
	return nil
}

func (k Key) public() (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.Strict().DecodeString(k.PublicKey)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("ed25519_public_key is not %d bytes of standard base64", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}
