//go:build darwin

package releasetrust

import (
	"context"
	"os/exec"
)

// Platform is this OS's signature check: Apple's codesign and spctl
// (platform_mac.go says which command lines and why).
func Platform() PlatformChecker { return macCheck{run: runTool} }

func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, name, args...).CombinedOutput()
}
