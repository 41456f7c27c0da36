package harness

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// CorpusModules is the folder of the real widget libraries the corpus
// pages are built with (e2e/corpus/package.json, installed by
// scripts/deps.sh): jQuery and jQuery UI, React, xterm.js, SortableJS,
// and Playwright MCP for the side-by-side benchmark.
func CorpusModules() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "corpus", "node_modules")
}

// ServeCorpus serves fixed HTML documents by path, like ServePages, and
// the corpus's npm packages under /vendor/ (so a page loads
// /vendor/jquery-ui/dist/jquery-ui.min.js), and returns the base URL.
func (e *Env) ServeCorpus(pages map[string]string) string {
	e.tb.Helper()
	return e.Serve(CorpusHandler(e.tb, pages))
}

// CorpusHandler is ServeCorpus's handler, for a test that serves more
// beside it. A test fails at once when the packages are not installed:
// run scripts/deps.sh (make test does).
func CorpusHandler(tb testing.TB, pages map[string]string) http.Handler {
	tb.Helper()
	modules := CorpusModules()
	if _, err := os.Stat(filepath.Join(modules, "jquery-ui")); err != nil {
		tb.Fatalf("the corpus's npm packages are not installed (%v): run scripts/deps.sh", err)
	}
	vendor := http.StripPrefix("/vendor/", http.FileServer(http.Dir(modules)))
	pageHandler := pagesHandler(pages)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/vendor/") {
			vendor.ServeHTTP(w, r)
			return
		}
		pageHandler.ServeHTTP(w, r)
	})
}
