package e2e

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// browser_wait until network_idle holds once the page's delayed fetches
// are done, not before.
func TestWaitNetworkIdle(t *testing.T) {
	e := harness.Start(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Fetches</title><p id="s">fetching</p><button onclick="go()">Go</button>
<script>async function go() {
  await fetch('/slow?ms=400'); await fetch('/slow?ms=400');
  document.getElementById('s').textContent = 'all fetched';
}</script>`)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Fprint(w, "ok")
	})
	base := e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Go")),
		step("wait", "wait", map[string]any{"until": "network_idle", "idle_ms": 300, "timeout_ms": 10000}))
	if st := stepsOf(res); st[1]["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("network idle step: %v", st[1])
	}
	if after, _, _ := snap(t, s, tab, map[string]any{"mode": "full"}); !strings.Contains(after, "all fetched") {
		t.Errorf("network idle held before the page's fetches were done:\n%s", after)
	}
	w := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "network_idle", "idle_ms": 200})
	if w["satisfied"] != true {
		t.Errorf("an idle page is not network idle: %v", w)
	}
}

// Two tasks each start a download by a click at the same time; each
// browser_wait until download reports its own tab's file, finished.
func TestDownloadsAttributedToTheirTab(t *testing.T) {
	e := harness.Start(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		fmt.Fprintf(w, `<!doctype html><title>Files</title><a href="/file?name=%s">Download %s</a>`, name, name)
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("name")
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		time.Sleep(200 * time.Millisecond)
		fmt.Fprint(w, strings.Repeat(name, 100))
	})
	base := e.Serve(mux)

	names := []string{"alpha.bin", "bravo.bin"}
	results := make([]map[string]any, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		s := e.MCP(t)
		tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/?name=" + name}))
		text, rev, _ := snap(t, s, tab, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Download "+name)))
			results[i] = ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "download", "timeout_ms": 15000})
		}()
	}
	wg.Wait()
	for i, name := range names {
		d, _ := results[i]["download"].(map[string]any)
		if results[i]["satisfied"] != true || d == nil || d["file_name"] != name || d["state"] != "complete" || d["bytes"] != float64(len(name)*100) {
			t.Errorf("task %d's download: %v, want %s complete with %d bytes", i, results[i], name, len(name)*100)
		}
	}
}
