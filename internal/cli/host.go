package cli

import (
	"context"
	"io"
	"log"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/host"
)

// runHost is the native-messaging host mode. stdout belongs to the native
// framing, so every message for a person goes to stderr (Chrome's log) and
// STATE/host.log.
func runHost(ctx context.Context, origin string, stdin io.Reader, stdout, stderr io.Writer) int {
	dir, err := stateDir()
	if err != nil {
		return exitErr(stderr, err)
	}
	err = host.Run(ctx, host.Options{
		Dir: dir, ExtensionOrigin: origin, Stdin: stdin, Stdout: stdout,
		Version: buildinfo.Version, Logger: log.New(stderr, "", 0),
	})
	if err != nil {
		return exitErr(stderr, err)
	}
	return 0
}
