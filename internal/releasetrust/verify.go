package releasetrust

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The refusals, each wrapped with its detail. Their texts are stable: the
// CLI prints them and scripts may match them.
var (
	// ErrNoTrustKey: spec 000, the checked-in configuration has no public
	// key, so nothing can be verified and nothing is trusted.
	ErrNoTrustKey = errors.New("no release-trust key is configured in this build: this source tree has no signed release")
	// ErrUnsigned: the signature is missing or empty.
	ErrUnsigned = errors.New("the artifact manifest is not signed")
	// ErrBadSignature: no trusted key for the manifest's channel signed
	// these exact bytes.
	ErrBadSignature = errors.New("the artifact manifest's signature is not valid under any trusted key")
	// ErrVersion: a valid manifest for another version.
	ErrVersion = errors.New("the artifact manifest is for another version")
	// ErrArtifact: a file is missing or differs from the manifest.
	ErrArtifact = errors.New("an artifact does not match the signed manifest")
	// ErrPlatformSignature: the OS's own signature check refused a file.
	ErrPlatformSignature = errors.New("an artifact failed the platform signature check")
)

// ErrNoPlatformCheck is what a PlatformChecker answers on an OS that has no
// signature for an executable (Linux): the file is not checked, which the
// report says, and verification rests on the manifest alone.
var ErrNoPlatformCheck = errors.New("this OS has no platform signature check")

// PlatformChecker is the operating system's own signature check of one
// file (platform_*.go). Name says what it runs, for the report.
type PlatformChecker interface {
	Name() string
	Check(path string) error
}

// Input is one verification.
type Input struct {
	// Manifest and Signature are the files' exact bytes. Signature is the
	// 64-byte ed25519 signature in standard base64 (surrounding whitespace
	// ignored).
	Manifest  []byte
	Signature []byte
	// Dir holds the artifacts.
	Dir string
	// Version is the version the manifest must name.
	Version string
	// GOOS selects the artifacts whose platform signature is checked.
	GOOS     string
	Platform PlatformChecker
}

// Report is what a successful verification established, and only that.
type Report struct {
	Version   string   `json:"version"`
	Channel   string   `json:"channel"`
	KeyID     string   `json:"key_id"`
	Artifacts []string `json:"artifacts"`
	// PlatformChecked names the artifacts the platform check passed, and
	// Platform the check ("none" where the OS has none).
	Platform        string   `json:"platform_check"`
	PlatformChecked []string `json:"platform_checked,omitempty"`
}

// Verify checks, in order, failing closed at the first problem: a trusted
// key exists; the signature is present; it is valid over the manifest's
// exact bytes under a key for the manifest's channel; the manifest decodes
// strictly; its version is in.Version; every artifact's size and SHA-256
// match the file in in.Dir; and the platform check passes for each
// artifact of in.GOOS. The manifest is authenticated before it is decoded.
func Verify(cfg Config, in Input) (Report, error) {
	if err := cfg.Usable(); err != nil {
		return Report{}, err
	}
	sigText := strings.TrimSpace(string(in.Signature))
	if sigText == "" {
		return Report{}, ErrUnsigned
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(sigText)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Report{}, fmt.Errorf("%w: the signature is not %d bytes of standard base64", ErrBadSignature, ed25519.SignatureSize)
	}
	if len(in.Manifest) > MaxManifestBytes {
		return Report{}, fmt.Errorf("%w: %d bytes, more than %d", ErrMalformedManifest, len(in.Manifest), MaxManifestBytes)
	}
	var signer *Key
	for i, k := range cfg.Keys {
		pub, err := k.public()
		if err != nil {
			return Report{}, fmt.Errorf("release-trust configuration: key %s: %w", k.ID, err)
		}
		if ed25519.Verify(pub, in.Manifest, sig) {
			signer = &cfg.Keys[i]
			break
		}
	}
	if signer == nil {
		return Report{}, ErrBadSignature
	}
	m, err := DecodeManifest(in.Manifest)
	if err != nil {
		return Report{}, err
	}
	if m.Channel != signer.Channel {
		return Report{}, fmt.Errorf("%w: key %s signs the %s channel, the manifest says %s", ErrBadSignature, signer.ID, signer.Channel, m.Channel)
	}
	if m.Version != in.Version {
		return Report{}, fmt.Errorf("%w: it names %s, this is %s", ErrVersion, m.Version, in.Version)
	}
	rep := Report{Version: m.Version, Channel: m.Channel, KeyID: signer.ID, Platform: in.Platform.Name()}
	for _, a := range m.Artifacts {
		path := filepath.Join(in.Dir, a.Name)
		if err := checkFile(path, a); err != nil {
			return Report{}, fmt.Errorf("%w: %s: %v", ErrArtifact, a.Name, err)
		}
		rep.Artifacts = append(rep.Artifacts, a.Name)
		if a.OS != "" && a.OS == in.GOOS {
			err := in.Platform.Check(path)
			if errors.Is(err, ErrNoPlatformCheck) {
				continue
			}
			if err != nil {
				return Report{}, fmt.Errorf("%w: %s (%s): %v", ErrPlatformSignature, a.Name, in.Platform.Name(), err)
			}
			rep.PlatformChecked = append(rep.PlatformChecked, a.Name)
		}
	}
	return rep, nil
}

// checkFile compares one regular file (not a link, not a directory) with
// its manifest entry, reading no more than the entry's size plus one byte.
func checkFile(path string, a Artifact) error {
	info, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%v)", info.Mode().Type())
	}
	if info.Size() != a.Size {
		return fmt.Errorf("size %d, the manifest says %d", info.Size(), a.Size)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, a.Size+1))
	if err != nil {
		return err
	}
	if n != a.Size {
		return fmt.Errorf("read %d bytes, the manifest says %d", n, a.Size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != a.SHA256 {
		return fmt.Errorf("SHA-256 %s, the manifest says %s", got, a.SHA256)
	}
	return nil
}
