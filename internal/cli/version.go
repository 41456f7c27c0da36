package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/agenttab/agenttab/internal/buildinfo"
)

func init() {
	register("version", "print the version (also --version); this build is a prerelease", runVersion)
}

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: agenttab version")
		return 2
	}
	fmt.Fprintf(stdout, "agenttab %s\n", buildinfo.Describe(buildinfo.Version))
	return 0
}
