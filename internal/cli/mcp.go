package cli

import (
	"context"
	"flag"
	"io"

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
	if err := mcpserver.New(dir.Socket(), buildinfo.Version).RunStdio(ctx); err != nil && ctx.Err() == nil {
		return exitErr(stderr, err)
	}
	return 0
}
