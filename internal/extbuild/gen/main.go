// Command gen builds the extension. `go generate ./extension` runs it as
// `gen -out dist` (extension/generate.go); `gen -tests DIR` bundles the
// unit tests for `node --test DIR` instead.
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/agenttab/agenttab/internal/extbuild"
)

func main() {
	out := flag.String("out", "", "write the built extension into this directory (its previous contents are replaced)")
	tests := flag.String("tests", "", "bundle src/**/*.test.ts into this directory as .mjs for node --test")
	flag.Parse()
	if (*out == "") == (*tests == "") {
		log.Fatal("extbuild: give exactly one of -out DIR and -tests DIR")
	}
	ext, err := extbuild.ExtensionDir()
	if err != nil {
		log.Fatal(err)
	}
	if *tests != "" {
		files, err := extbuild.BuildTests(ext, *tests)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("extbuild: %d test bundles in %s\n", len(files), *tests)
		return
	}
	files, err := extbuild.Build(ext)
	if err != nil {
		log.Fatal(err)
	}
	if err := extbuild.Write(*out, files); err != nil {
		log.Fatal(err)
	}
}
