// Command gen writes adapters/core/src/tools.generated.ts from the MCP
// tool registry (mcpserver.ToolsTS). `go generate ./adapters/core` runs it;
// it never writes anything else.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/agenttab/agenttab/internal/mcpserver"
)

func main() {
	out := flag.String("out", "", "file to write (required)")
	flag.Parse()
	if *out == "" {
		log.Fatal("mcpserver/gen: -out is required")
	}
	src, err := mcpserver.ToolsTS(context.Background())
	if err != nil {
		log.Fatalf("mcpserver/gen: %v", err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
