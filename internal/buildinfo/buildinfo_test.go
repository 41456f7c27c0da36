package buildinfo

import (
	"regexp"
	"testing"
)

// The spec names this version and calls it a prerelease (spec 000: "2.0.0-rc.1
// is prerelease and unreleased").
func TestVersionIsTheSpecsPrerelease(t *testing.T) {
	if Version != "2.0.0-rc.1" {
		t.Errorf("Version = %q, spec 000 names 2.0.0-rc.1", Version)
	}
	if !Prerelease(Version) {
		t.Errorf("%s is not reported as a prerelease", Version)
	}
	if got, want := Describe(Version), "2.0.0-rc.1 (prerelease)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

func TestCoreIsChromesVersionForm(t *testing.T) {
	// https://developer.chrome.com/docs/extensions/reference/manifest/version:
	// one to four dot-separated integers, each 0..65535, no leading zeros.
	form := regexp.MustCompile(`^(0|[1-9][0-9]{0,4})(\.(0|[1-9][0-9]{0,4})){0,3}$`)
	for _, v := range []string{Version, "1.2.3", "1.2.3-beta.2+sha.5", "1.2.3+meta"} {
		if c := Core(v); !form.MatchString(c) {
			t.Errorf("Core(%q) = %q, not a Chrome manifest version", v, c)
		}
	}
	if Core(Version) != "2.0.0" {
		t.Errorf("Core(%q) = %q", Version, Core(Version))
	}
	for v, want := range map[string]bool{"1.0.0": false, "1.0.0+build-7": false, "1.0.0-rc.1+b": true} {
		if Prerelease(v) != want {
			t.Errorf("Prerelease(%q) = %v, want %v", v, !want, want)
		}
	}
	if Describe("1.0.0") != "1.0.0" {
		t.Errorf("a release gets a label: %q", Describe("1.0.0"))
	}
}
