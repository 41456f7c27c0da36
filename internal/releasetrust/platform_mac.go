package releasetrust

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// macCheck runs Apple's own tools on one file: codesign verifies its code
// signature strictly, then spctl asks Gatekeeper for its assessment of that
// signature (which is where notarisation shows). Their verdict, not ours,
// is the platform's. The command lines live here, outside
// platform_darwin.go, so that they are tested on every OS; only the exec is
// darwin's.
type macCheck struct {
	// run runs one command and returns its combined output; an error means
	// the tool refused (a non-zero exit) or could not run.
	run func(ctx context.Context, name string, args ...string) ([]byte, error)
}

// macToolWait bounds one tool run (spctl may ask Apple's notarisation
// service over the network).
const macToolWait = 60 * time.Second

// macCommands are the checks of the file at the absolute path abs, in
// order; each must succeed.
//
// Gatekeeper's "execute" assessment is for apps: for a bare command-line
// binary such as agenttab it answers "rejected (the code is valid but does
// not seem to be an app)" however well it is signed and notarised. The
// "open" (document) assessment with the context:primary-signature context
// assesses the file's own code signature instead (Security framework,
// SecAssessment.h: kSecAssessmentContextKeyPrimarySignature, "on document
// assessment, treat code signature as primary and return its status";
// spctl(8): --context key:value). --deep is for bundles; a single binary
// has nothing nested.
func macCommands(abs string) [][]string {
	return [][]string{
		{"codesign", "--verify", "--strict", abs},
		{"spctl", "--assess", "--type", "open", "--context", "context:primary-signature", abs},
	}
}

func (macCheck) Name() string {
	return "codesign --verify --strict and spctl --assess --type open --context context:primary-signature"
}

// Check fails closed: a tool that is missing, refuses, or does not finish
// in time fails the file.
func (c macCheck) Check(path string) error {
	// Absolute, so that a file name starting with "-" cannot read as an
	// option to either tool.
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("resolving %s: %w", path, err)
	}
	for _, args := range macCommands(abs) {
		ctx, cancel := context.WithTimeout(context.Background(), macToolWait)
		out, err := c.run(ctx, args[0], args[1:]...)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}
