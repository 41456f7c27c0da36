// Command agenttab is AgentTab's one binary: the native-messaging host that
// Chrome starts, the MCP adapter, and the install, status and demo commands.
// It holds only main; the commands live in internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agenttab/agenttab/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
