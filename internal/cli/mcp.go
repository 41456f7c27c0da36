package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/mcpserver"
)

func init() {
	register("mcp", "serve the AgentTab tools to an agent over MCP (stdio)", runMCP)
}

func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := stateDir()
	if err != nil {
		return exitErr(stderr, err)
	}
	// The capability file is this adapter's own: one per agent process
	// that started it (its parent), so a restarted adapter of the same
	// agent resumes its task and two agents never share one.
	capFile := filepath.Join(dir.Adapters(), fmt.Sprintf("mcp-stdio-%d.capability", os.Getppid()))
	srv, err := mcpserver.New(dir.Socket(), buildinfo.Version, mcpserver.CapabilityFile(capFile))
	if err != nil {
		return exitErr(stderr, err)
	}
	if err := srv.RunStdio(ctx); err != nil && ctx.Err() == nil {
		return exitErr(stderr, err)
	}
	return 0
}
