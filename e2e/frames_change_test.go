package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The worker keeps a tab's frame index between calls (cdp/frames.ts
// FrameCache) and each new document gets the page agent as it is created
// (cdp/agent.ts preinstall). Whatever the page does to its frames between
// two calls, in its own process or another one, the next snapshot shows
// the frames as they are now and the refs of documents that went are
// stale.
func TestSnapshotsFollowFramesTheyChange(t *testing.T) {
	e := harness.Start(t)
	mux := http.NewServeMux()
	var base string
	var mu sync.Mutex
	loaded := map[string]bool{}
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		cross := strings.Replace(base, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Frames</title>
<iframe title="Same" id="same" src="/inner?n=first"></iframe>
<iframe title="Cross" id="cross" src="%s/inner?n=far"></iframe>
<button onclick="const f = document.createElement('iframe'); f.title = 'Added'; f.src = '/inner?n=added'; document.body.append(f)">Add a frame</button>
<button onclick="document.getElementById('same').remove()">Remove the first frame</button>
<button onclick="document.getElementById('cross').src = '%s/inner?n=moved'">Move the far frame</button>`, cross, cross)
	})
	mux.HandleFunc("/inner", func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("n")
		fmt.Fprintf(w, `<!doctype html><title>%s</title><button>%s button</button><a href="/inner?n=%s-next">%s next</a>
<script>addEventListener("load", () => fetch("/loaded?n=%s"))</script>`, n, n, n, n, n)
	})
	mux.HandleFunc("/loaded", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		loaded[r.URL.Query().Get("n")] = true
		mu.Unlock()
	})
	// Each frame's page says when it has loaded; the snapshot that follows
	// is taken once, not until it shows what the test wants: a snapshot
	// built on frames as they were would not show it.
	waitLoaded := func(names ...string) {
		t.Helper()
		e.WaitFor(t, fmt.Sprintf("the frames %v to load", names), revokeWait, func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, n := range names {
				if !loaded[n] {
					return false
				}
			}
			return true
		})
	}
	shows := func(text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Fatalf("the snapshot does not show %s:\n%s", w, text)
			}
		}
	}
	base = e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	waitLoaded("first", "far")
	text, rev, _ := snap(t, s, tab, nil)
	first, far := refOf(t, text, "button", "first button"), refOf(t, text, "button", "far button")

	// The same-origin frame navigates itself: a new document in a known frame.
	rev = revisionOf(act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "first next"))))
	waitLoaded("first-next")
	text, _, _ = snap(t, s, tab, nil)
	shows(text, `button "first-next button"`)
	actRefused(t, s, tab, rev, protocol.CodeStaleRef, 0, step("click", "ref", first))

	// A frame the page adds, and one it moves to another document in another process.
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Add a frame")), step("click", "ref", refOf(t, text, "button", "Move the far frame")))
	waitLoaded("added", "moved")
	text, _, _ = snap(t, s, tab, nil)
	shows(text, `button "added button"`, `button "moved button"`)
	actRefused(t, s, tab, rev, protocol.CodeStaleRef, 0, step("click", "ref", far))
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "added button")), step("click", "ref", refOf(t, text, "button", "moved button")))

	// A frame the page removes.
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Remove the first frame")))
	text, _, _ = snap(t, s, tab, nil)
	shows(text, `button "added button"`)
	if strings.Contains(text, "first-next") {
		t.Fatalf("the removed frame is still in the snapshot:\n%s", text)
	}
}
