package harness

import (
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
)

// Serve serves handler on 127.0.0.1 for the rest of the test and returns
// its base URL (http://127.0.0.1:PORT). Loopback only: the pages are the
// test's, and nothing else should reach them.
func (e *Env) Serve(handler http.Handler) string {
	e.tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.tb.Fatalf("listening on 127.0.0.1: %v", err)
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	e.tb.Cleanup(srv.Close)
	return srv.URL
}

// ServePages serves fixed HTML documents by path ("/" , "/form", …) and 404
// for anything else, and returns the base URL.
func (e *Env) ServePages(pages map[string]string) string {
	e.tb.Helper()
	return e.Serve(pagesHandler(pages))
}

// pagesHandler serves fixed HTML documents by path and 404 for anything
// else.
func pagesHandler(pages map[string]string) http.Handler {
	pages = maps.Clone(pages)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// Every load must reach the server, so a test that reloads sees
		// what it served, not a cached copy.
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte(html))
	})
}
