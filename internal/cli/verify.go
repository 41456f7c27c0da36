package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/releasetrust"
)

func init() {
	register("verify-release", "check release artifacts against a signed artifact manifest (fails closed: this build trusts no release key)", runVerifyRelease)
}

// verifyReleaseHelp is the command's help. It says what a pass means and
// what it does not (spec 000: no publication, notarization, Authenticode,
// provenance or store approval is inferred from local code).
const verifyReleaseHelp = `Usage: agenttab verify-release --manifest FILE --signature FILE --dir DIR [--json]

Checks release artifacts against a signed artifact manifest: the detached
ed25519 signature (standard base64) must be valid over the manifest's exact
bytes under a key of this build's release-trust configuration, the manifest
must name version %s, and every artifact in DIR must have the manifest's
size and SHA-256. Artifacts marked for this OS also go through its own
signature check: Authenticode (WinVerifyTrust) on Windows, codesign and
spctl on macOS; Linux has none.

The release-trust configuration in this source tree holds no public key, so
verification always fails here: this source tree has no signed release. A
pass would say only that the files match a manifest signed by a trusted key;
it is not evidence of publication, notarization, store approval or
provenance.

Flags:
`

// maxSignatureBytes bounds the signature file: 64 bytes in base64 and a
// line ending.
const maxSignatureBytes = 4096

func runVerifyRelease(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify-release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), verifyReleaseHelp, buildinfo.Version)
		fs.PrintDefaults()
	}
	manifest := fs.String("manifest", "", "the artifact manifest (JSON)")
	signature := fs.String("signature", "", "the manifest's detached ed25519 signature (standard base64)")
	dir := fs.String("dir", "", "the directory holding the artifacts")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *manifest == "" || *signature == "" || *dir == "" || fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	cfg, err := releasetrust.Default()
	if err != nil {
		return exitErr(stderr, err)
	}
	// Fail closed before reading anything: without a key nothing can pass.
	if err := cfg.Usable(); err != nil {
		return exitErr(stderr, err)
	}
	m, err := readBounded(*manifest, releasetrust.MaxManifestBytes)
	if err != nil {
		return exitErr(stderr, err)
	}
	sig, err := readBounded(*signature, maxSignatureBytes)
	if err != nil {
		return exitErr(stderr, err)
	}
	rep, err := releasetrust.Verify(cfg, releasetrust.Input{
		Manifest: m, Signature: sig, Dir: *dir,
		Version: buildinfo.Version, GOOS: runtime.GOOS, Platform: releasetrust.Platform(),
	})
	if err != nil {
		return exitErr(stderr, err)
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(rep)
		return 0
	}
	fmt.Fprintf(stdout, "%d artifact(s) match the manifest for %s (%s channel), signed by trusted key %s\n", len(rep.Artifacts), rep.Version, rep.Channel, rep.KeyID)
	fmt.Fprintf(stdout, "platform signature check: %s; passed: %v\n", rep.Platform, rep.PlatformChecked)
	fmt.Fprintln(stdout, "This is not evidence of publication, notarization, store approval or provenance.")
	return 0
}

// readBounded reads a file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, nil
}
