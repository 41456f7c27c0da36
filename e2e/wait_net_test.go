package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
		fmt.Fprintf(w, `<!doctype html><title>Files</title><a href="/file?name=%s">Download %s</a><a href="/same">Same file</a>`, name, name)
	})
	// One URL for both tasks; each tab's copy has its own size (by the
	// page that asked), so a swapped attribution shows.
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="same.bin"`)
		time.Sleep(200 * time.Millisecond)
		fmt.Fprint(w, strings.Repeat("s", sameSize(r.Referer())))
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
	sessions := make([]*mcp.ClientSession, len(names))
	tabs, texts, revs := make([]string, len(names)), make([]string, len(names)), make([]int64, len(names))
	for i, name := range names {
		sessions[i] = e.MCP(t)
		tabs[i] = handleOf(t, ok(t, sessions[i], protocol.MethodOpen, map[string]any{"url": base + "/?name=" + name}))
		texts[i], revs[i], _ = snap(t, sessions[i], tabs[i], nil)
	}
	// Both tasks click at the same time, then wait for their download.
	both := func(link func(i int) string) []map[string]any {
		results := make([]map[string]any, len(names))
		var wg sync.WaitGroup
		for i := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				act(t, sessions[i], tabs[i], revs[i], step("click", "ref", refOf(t, texts[i], "link", link(i))))
				results[i] = ok(t, sessions[i], protocol.MethodWait, map[string]any{"tab": tabs[i], "until": "download", "timeout_ms": 15000})
			}()
		}
		wg.Wait()
		return results
	}
	for i, r := range both(func(i int) string { return "Download " + names[i] }) {
		d, _ := r["download"].(map[string]any)
		if r["satisfied"] != true || d == nil || d["file_name"] != names[i] || d["state"] != "complete" || d["bytes"] != float64(len(names[i])*100) {
			t.Errorf("task %d's download: %v, want %s complete with %d bytes", i, r, names[i], len(names[i])*100)
		}
		// complete means the file is in place, in the test profile's own folder.
		if fi, err := os.Stat(filepath.Join(e.DownloadDir(), names[i])); err != nil || fi.Size() != int64(len(names[i])*100) {
			t.Errorf("task %d's file on disk: %v %v, want %d bytes in %s", i, fi, err, len(names[i])*100, e.DownloadDir())
		}
	}
	// The same URL from both tabs: each gets its own copy (by the guid on
	// its tab's own session), though Chrome saves the second under another
	// name than the one both pages suggested.
	same := both(func(int) string { return "Same file" })
	for i, r := range same {
		d, _ := r["download"].(map[string]any)
		if r["satisfied"] != true || d == nil || d["bytes"] != float64(sameSize(names[i])) || d["file_name"] != "same.bin" || d["state"] != "complete" {
			t.Errorf("task %d's download of the shared URL: %v, want same.bin complete with %d bytes", i, r, sameSize(names[i]))
		}
	}
	a, _ := same[0]["download"].(map[string]any)
	b, _ := same[1]["download"].(map[string]any)
	if ida, _ := a["id"].(string); ida == "" || ida == b["id"] {
		t.Errorf("the tasks' downloads have ids %v and %v, want two guids", a["id"], b["id"])
	}
	var sizes []int64
	for _, name := range []string{"same.bin", "same (1).bin"} {
		if fi, err := os.Stat(filepath.Join(e.DownloadDir(), name)); err == nil {
			sizes = append(sizes, fi.Size())
		}
	}
	if slices.Sort(sizes); !slices.Equal(sizes, []int64{int64(sameSize("alpha")), int64(sameSize("bravo"))}) {
		t.Errorf("the shared URL's files on disk have sizes %v, want both copies", sizes)
	}
}

// sameSize is the size of /same for the page that asks (by its Referer).
func sameSize(referer string) int {
	if strings.Contains(referer, "alpha") {
		return 1000
	}
	return 2000
}

// A download whose connection breaks ends the wait too: Chrome's events
// say canceled (observed in Chromium 156, with bytes 0), and no file is
// left under its name.
func TestDownloadCanceledEndsTheWait(t *testing.T) {
	e := harness.Start(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Files</title><a href="/broken">Broken</a>`)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="broken.bin"`)
		w.Header().Set("Content-Length", "100000")
		_, _ = w.Write(make([]byte, 10))
		w.(http.Flusher).Flush()
		time.Sleep(300 * time.Millisecond)
		if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
			_ = c.Close()
		}
	})
	base := e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Broken")))
	r := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "download", "timeout_ms": 15000})
	d, _ := r["download"].(map[string]any)
	if id, _ := d["id"].(string); r["satisfied"] != true || id == "" || d["file_name"] != "broken.bin" || d["state"] != "canceled" || d["url"] != base+"/broken" {
		t.Errorf("the broken download: %v, want broken.bin canceled", r)
	}
	if _, err := os.Stat(filepath.Join(e.DownloadDir(), "broken.bin")); err == nil {
		t.Errorf("a canceled download left broken.bin in %s", e.DownloadDir())
	}
}
