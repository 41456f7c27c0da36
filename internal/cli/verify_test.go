package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/internal/releasetrust"
)

// This build trusts no release key (spec 000), so verify-release fails
// closed with the stable text and claims nothing, whatever it is given.
func TestVerifyReleaseFailsClosed(t *testing.T) {
	dir := t.TempDir()
	manifest, sig := filepath.Join(dir, "manifest.json"), filepath.Join(dir, "manifest.sig")
	os.WriteFile(manifest, []byte(`{"schema":1}`), 0o600)
	os.WriteFile(sig, []byte("AAAA\n"), 0o600)
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"verify-release", "--manifest", manifest, "--signature", sig, "--dir", dir}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), releasetrust.ErrNoTrustKey.Error()) {
		t.Errorf("stderr %q does not say %q", stderr.String(), releasetrust.ErrNoTrustKey)
	}
	if stdout.Len() != 0 {
		t.Errorf("a refused verification printed %q", stdout.String())
	}
}

// The help says what a pass would and would not mean, and that this source
// tree has no signed release; it never claims one.
func TestVerifyReleaseHelpClaimsNothing(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"verify-release", "--help"}, strings.NewReader(""), &stdout, &stderr); code != 2 {
		t.Errorf("--help exit %d", code)
	}
	help := stderr.String()
	for _, want := range []string{"--manifest", "--signature", "--dir", "holds no public key", "this source tree has no signed release", "not evidence of publication, notarization"} {
		if !strings.Contains(help, want) {
			t.Errorf("help does not say %q:\n%s", want, help)
		}
	}
}

func TestVersionSaysPrerelease(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		if got, want := stdout.String(), "agenttab 2.0.0-rc.1 (prerelease)\n"; got != want {
			t.Errorf("%v printed %q, want %q", args, got, want)
		}
	}
}
