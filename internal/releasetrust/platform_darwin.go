//go:build darwin

package releasetrust

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// macCheck runs Apple's own tools: codesign verifies the code signature
// strictly, spctl asks Gatekeeper whether it would run the file (which is
// where notarization shows). Their verdict, not ours, is the platform's.
type macCheck struct{}

// Platform is this OS's signature check.
func Platform() PlatformChecker { return macCheck{} }

func (macCheck) Name() string { return "codesign --verify --strict and spctl --assess" }

func (macCheck) Check(path string) error {
	for _, args := range [][]string{
		{"codesign", "--verify", "--strict", "--deep", path},
		{"spctl", "--assess", "--type", "execute", path},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}
