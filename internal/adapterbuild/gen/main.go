// Command gen bundles the adapters' TypeScript for Node: -tests DIR writes
// adapters/core's unit tests there (make adapters-test); -entry and -out
// bundle one entry point. It never writes into adapters/.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/agenttab/agenttab/internal/adapterbuild"
)

func main() {
	tests := flag.String("tests", "", "write adapters/core's unit tests, bundled, into this directory")
	entry := flag.String("entry", "", "an entry point to bundle (relative to adapters/core)")
	out := flag.String("out", "", "the bundle to write (with -entry)")
	flag.Parse()
	dir, err := adapterbuild.CoreDir()
	if err != nil {
		log.Fatal(err)
	}
	switch {
	case *tests != "":
		err = adapterbuild.Tests(dir, *tests)
	case *entry != "" && *out != "":
		var b []byte
		if b, err = adapterbuild.Bundle(dir, *entry); err == nil {
			err = os.WriteFile(*out, b, 0o644)
		}
	default:
		log.Fatal("adapterbuild: pass -tests DIR, or -entry FILE -out FILE")
	}
	if err != nil {
		log.Fatal(err)
	}
}
