// Command gen writes extension/src/protocol/generated.ts from package
// protocol. `go generate ./extension` runs it (extension/generate.go).
package main

import (
	"flag"
	"log"
	"os"

	"github.com/agenttab/agenttab/internal/tsgen"
)

func main() {
	out := flag.String("out", "", "file to write (required)")
	flag.Parse()
	if *out == "" {
		log.Fatal("tsgen: -out is required")
	}
	dir, err := tsgen.PackageDir(tsgen.ProtocolPath)
	if err != nil {
		log.Fatal(err)
	}
	src, err := tsgen.Generate(dir)
	if err != nil {
		log.Fatalf("tsgen: %v", err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
