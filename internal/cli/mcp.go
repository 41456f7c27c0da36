package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/agenttab/agenttab/internal/buildinfo"
	"github.com/agenttab/agenttab/internal/mcpserver"
	"github.com/agenttab/agenttab/internal/statedir"
)

// defaultHTTPAddr is the address --print-http-config names when --http is
// not given.
const defaultHTTPAddr = "127.0.0.1:8765"

func init() {
	register("mcp", "serve the AgentTab tools to an agent over MCP (stdio, or Streamable HTTP with --http)", runMCP)
}

func runMCP(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve MCP over Streamable HTTP on `ADDR` (loopback only, e.g. 127.0.0.1:8765; port 0 picks one) instead of stdio; every MCP session is its own task")
	printConfig := fs.Bool("print-http-config", false, "print an MCP client config (URL and bearer token) for --http ADDR (default "+defaultHTTPAddr+") and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir, err := stateDir()
	if err != nil {
		return exitErr(stderr, err)
	}
	switch {
	case *printConfig:
		return printHTTPConfig(dir, *httpAddr, stdout, stderr)
	case *httpAddr != "":
		return serveHTTP(ctx, dir, *httpAddr, stderr)
	}
	// The capability file is this adapter's own: named after the agent
	// process that started it (its parent), so a restarted adapter of the
	// same agent resumes its task, and claimed with a lock for as long as
	// this process runs, so a sibling adapter of the same parent gets a
	// file (and a task) of its own.
	capFile, release, err := dir.ClaimAdapterFile(fmt.Sprintf("mcp-stdio-%d", os.Getppid()), ".capability")
	if err != nil {
		return exitErr(stderr, err)
	}
	defer release()
	srv, err := mcpserver.New(dir.Socket(), buildinfo.Version, mcpserver.CapabilityFile(capFile))
	if err != nil {
		return exitErr(stderr, err)
	}
	if err := srv.RunStdio(ctx); err != nil && ctx.Err() == nil {
		return exitErr(stderr, err)
	}
	return 0
}

func serveHTTP(ctx context.Context, dir statedir.Dir, addr string, stderr io.Writer) int {
	if err := mcpserver.CheckLoopback(addr); err != nil {
		return usageErr(stderr, err)
	}
	token, err := mcpserver.LoadOrCreateToken(dir.HTTPToken())
	if err != nil {
		return exitErr(stderr, err)
	}
	l, err := mcpserver.ListenLoopback(addr)
	if errors.Is(err, mcpserver.ErrNotLoopback) {
		return usageErr(stderr, err)
	}
	if err != nil {
		return exitErr(stderr, err)
	}
	h, err := mcpserver.NewHTTPHandler(mcpserver.HTTPOptions{Socket: dir.Socket(), Version: buildinfo.Version, Token: token, Addr: l.Addr().String()})
	if err != nil {
		l.Close()
		return exitErr(stderr, err)
	}
	// The bound address matters when the port was 0; scripts read it here.
	fmt.Fprintf(stderr, "agenttab: serving MCP at %s (bearer token in %s; `agenttab mcp --print-http-config --http %s` prints a client config)\n",
		mcpserver.URL(l.Addr().String()), dir.HTTPToken(), l.Addr())
	if err := mcpserver.ServeHTTP(ctx, l, h); err != nil {
		return exitErr(stderr, err)
	}
	return 0
}

// httpClientConfig is the mcpServers entry MCP clients read for a remote
// (Streamable HTTP) server.
type httpClientConfig struct {
	MCPServers map[string]httpServerEntry `json:"mcpServers"`
}

type httpServerEntry struct {
	Type    string            `json:"type"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

func printHTTPConfig(dir statedir.Dir, addr string, stdout, stderr io.Writer) int {
	if addr == "" {
		addr = defaultHTTPAddr
	}
	if err := mcpserver.CheckLoopback(addr); err != nil {
		return usageErr(stderr, err)
	}
	if _, port, _ := net.SplitHostPort(addr); port == "0" {
		return usageErr(stderr, fmt.Errorf("address %q: a client config needs a fixed port; pass --http 127.0.0.1:PORT", addr))
	}
	token, err := mcpserver.LoadOrCreateToken(dir.HTTPToken())
	if err != nil {
		return exitErr(stderr, err)
	}
	cfg := httpClientConfig{MCPServers: map[string]httpServerEntry{"agenttab": {
		Type:    "http",
		URL:     mcpserver.URL(addr),
		Headers: map[string]string{"Authorization": "Bearer " + token},
	}}}
	out, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return exitErr(stderr, fmt.Errorf("encoding the client config: %w", err))
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}

// usageErr prints err and returns exit code 2: the command line asked for
// something AgentTab refuses.
func usageErr(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "agenttab: %v\n", err)
	return 2
}
