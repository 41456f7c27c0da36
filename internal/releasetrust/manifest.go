package releasetrust

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Manifest is a signed artifact manifest: what a release holds. Its exact
// bytes are what the detached signature covers.
type Manifest struct {
	// Schema is 1.
	Schema    int        `json:"schema"`
	Product   string     `json:"product"`
	Version   string     `json:"version"`
	Channel   string     `json:"channel"`
	Artifacts []Artifact `json:"artifacts"`
}

// Artifact is one file of a release.
type Artifact struct {
	// Name is a plain file name in the artifact directory.
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// OS, when set, is the GOOS whose platform signature check the file
	// must also pass on that OS ("windows", "darwin", "linux").
	OS string `json:"os,omitempty"`
}

// Product is the only product a manifest may name.
const Product = "agenttab"

// Bounds on what a manifest may say: a manifest is read whole before its
// signature is checked, and a size beyond these is not a release of ours.
const (
	MaxManifestBytes = 1 << 20
	MaxArtifacts     = 256
	MaxArtifactSize  = 4 << 30
)

var (
	// artifactName: a plain name, no separator, no leading dot (so neither
	// "." nor ".." nor a hidden file), no drive letter.
	artifactName = regexp.MustCompile(`^[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,127}$`)
	sha256Hex    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	// semver: a semantic version, prerelease and build parts allowed.
	semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
)

var channels = []string{"development", "prerelease", "stable"}

func validChannel(c string) bool { return slices.Contains(channels, c) }

var osNames = []string{"", "windows", "darwin", "linux"}

// ErrMalformedManifest is wrapped by DecodeManifest's errors.
var ErrMalformedManifest = errors.New("malformed artifact manifest")

// DecodeManifest decodes a manifest strictly: one JSON object, known
// members only, none twice, every field in its form, artifact names unique.
func DecodeManifest(data []byte) (Manifest, error) {
	fail := func(format string, a ...any) (Manifest, error) {
		return Manifest{}, fmt.Errorf("%w: %s", ErrMalformedManifest, fmt.Sprintf(format, a...))
	}
	if len(data) > MaxManifestBytes {
		return fail("%d bytes, more than %d", len(data), MaxManifestBytes)
	}
	var m Manifest
	if err := decodeStrict(data, &m); err != nil {
		return fail("%v", err)
	}
	switch {
	case m.Schema != 1:
		return fail("schema %d, want 1", m.Schema)
	case m.Product != Product:
		return fail("product %q, want %q", m.Product, Product)
	case !semver.MatchString(m.Version):
		return fail("version %q is not a semantic version", m.Version)
	case !validChannel(m.Channel):
		return fail("channel %q is not one of %v", m.Channel, channels)
	case len(m.Artifacts) == 0:
		return fail("no artifacts")
	case len(m.Artifacts) > MaxArtifacts:
		return fail("%d artifacts, more than %d", len(m.Artifacts), MaxArtifacts)
	}
	seen := map[string]bool{}
	for i, a := range m.Artifacts {
		switch {
		case !artifactName.MatchString(a.Name):
			return fail("artifacts[%d].name %q is not a plain file name", i, a.Name)
		case seen[strings.ToLower(a.Name)]:
			return fail("artifacts[%d].name %q is listed twice", i, a.Name)
		case a.Size < 0 || a.Size > MaxArtifactSize:
			return fail("artifacts[%d].size %d is outside 0..%d", i, a.Size, int64(MaxArtifactSize))
		case !sha256Hex.MatchString(a.SHA256):
			return fail("artifacts[%d].sha256 is not 64 lowercase hex digits", i)
		case !slices.Contains(osNames, a.OS):
			return fail("artifacts[%d].os %q is not one of windows, darwin, linux", i, a.OS)
		}
		// Windows and macOS file names ignore case: one file, listed twice.
		seen[strings.ToLower(a.Name)] = true
	}
	return m, nil
}
