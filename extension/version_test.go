package extension

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/internal/buildinfo"
)

// The extension and the host carry one version: the extension's manifest
// version is the host's without its prerelease part, and version_name is
// the host's whole version, called a prerelease.
func TestVersionDerivesFromBuildinfo(t *testing.T) {
	if !strings.HasPrefix(buildinfo.Version, Version+"-") && buildinfo.Version != Version {
		t.Errorf("extension version %q is not the core of %q", Version, buildinfo.Version)
	}
	if !strings.HasPrefix(VersionName, buildinfo.Version+" ") || !strings.Contains(VersionName, "prerelease") {
		t.Errorf("version_name %q does not name %q as a prerelease", VersionName, buildinfo.Version)
	}
}
