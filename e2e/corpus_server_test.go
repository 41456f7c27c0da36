package e2e

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
)

// corpusPagesDir holds the corpus pages (issue 11), one task each, read by
// TestCorpus and BenchmarkCorpusSideBySide alike so both serve the same
// files.
const corpusPagesDir = "corpus/pages"

// corpusPages reads every page of the corpus, by path ("/inbox.html").
func corpusPages(t testing.TB) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusPagesDir, "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus pages in %s: %v", corpusPagesDir, err)
	}
	pages := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages["/"+filepath.Base(f)] = string(b)
	}
	return pages
}

// pageRecords is the test-only endpoint the corpus pages post their state
// to (POST /record, a JSON object): the proof of a task is what the page
// itself sent, not what a snapshot of it says.
type pageRecords struct {
	mu   sync.Mutex
	last map[string]map[string]any // by the posting page's path
}

func (r *pageRecords) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<16))
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	page := "?"
	if ref := req.Header.Get("Referer"); ref != "" {
		if i := strings.LastIndex(ref, "/"); i >= 0 {
			page = strings.SplitN(ref[i:], "?", 2)[0]
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]map[string]any{}
	}
	r.last[page] = v
	w.WriteHeader(http.StatusNoContent)
}

// take returns and forgets what page last posted (nil when nothing).
func (r *pageRecords) take(page string) map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := r.last[page]
	delete(r.last, page)
	return v
}

// serveCorpus serves the corpus, and the extra pages by path, on loopback
// for the rest of the test and returns its base URL and the records its
// pages post.
func serveCorpus(t testing.TB, e *harness.Env, extra map[string]string) (string, *pageRecords) {
	t.Helper()
	rec := &pageRecords{}
	pages := corpusPages(t)
	maps.Copy(pages, extra)
	mux := http.NewServeMux()
	mux.Handle("/record", rec)
	mux.Handle("/", harness.CorpusHandler(t, pages))
	return e.Serve(mux), rec
}
