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

// clicks records which buttons the pages report as clicked.
type clicks struct {
	mu   sync.Mutex
	seen []string
}

func (c *clicks) handler(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.seen = append(c.seen, r.URL.Query().Get("b"))
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (c *clicks) has(b string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.seen {
		if s == b {
			return true
		}
	}
	return false
}

const reportClick = `<script>document.addEventListener('click', e => { const b = e.composedPath()[0].closest && e.composedPath()[0].closest('button'); if (b) fetch('%s/clicked?b=' + encodeURIComponent(b.textContent.trim())); });</script>`

// Same-origin and cross-origin iframes and an open shadow root are in the
// snapshot with their own refs, and acted on through them.
func TestFramesAndShadowDOM(t *testing.T) {
	e := harness.Start(t)
	c := &clicks{}
	mux := http.NewServeMux()
	mux.HandleFunc("/clicked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		c.handler(w, r)
	})
	var base string
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		cross := strings.Replace(base, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Frames</title><h1>Host page</h1>
<button>Top button</button>
<iframe title="Same origin" src="/inner?n=same" width="400" height="120"></iframe>
<iframe title="Cross origin" src="%s/inner?n=cross" width="400" height="120"></iframe>
<fancy-card></fancy-card>
<script>customElements.define('fancy-card', class extends HTMLElement { constructor() { super();
  this.attachShadow({mode: 'open'}).innerHTML = '<p>Inside the shadow</p><button>Shadow button</button>'; } });</script>`+reportClick, cross, base)
	})
	mux.HandleFunc("/inner", func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("n")
		fmt.Fprintf(w, `<!doctype html><title>%s</title><button>%s frame button</button><label>%s field <input></label>`+reportClick, n, n, n, base)
	})
	base = e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)

	for _, b := range []string{"Top button", "same frame button", "cross frame button", "Shadow button"} {
		res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", b)))
		if st := stepsOf(res); st[0]["outcome"] == string(protocol.OutcomeNotStarted) {
			t.Fatalf("click %q: %v", b, res)
		}
		e.WaitFor(t, "the page to report a click on "+b, revokeWait, func() bool { return c.has(b) })
	}
	act(t, s, tab, rev, step("fill", "ref", refOf(t, text, "textbox", "cross field"), "text", "typed across origins"))
	after, _, _ := snap(t, s, tab, nil)
	if !strings.Contains(after, "typed across origins") {
		t.Fatalf("the cross-origin field does not show its value:\n%s", after)
	}
}

// Key chords, scrolling a long list, and JavaScript dialogs.
func TestKeysScrollAndDialogs(t *testing.T) {
	e := harness.Start(t)
	var list strings.Builder
	for i := range 200 {
		fmt.Fprintf(&list, "<li>Row %d</li>", i)
	}
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Keys</title>
<label>Editor <input id="ed" value="hello world"></label>
<p id="out">none</p>
<div id="box" style="height:150px;overflow:auto" tabindex="0" aria-label="Rows"><ul>` + list.String() + `</ul></div>
<button id="ask">Ask</button>
<script>
document.getElementById('ed').addEventListener('keydown', e => { if (e.ctrlKey && e.key === 'Enter') document.getElementById('out').textContent = 'chord seen'; });
document.getElementById('ask').addEventListener('click', () => { const a = prompt('Your name?', 'x'); document.getElementById('out').textContent = 'prompt said ' + a; });
</script>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	ed := refOf(t, text, "textbox", "Editor")

	act(t, s, tab, rev,
		step("focus", "ref", ed),
		step("press", "keys", "Control+A"),
		step("press", "keys", "Backspace"),
		step("type", "ref", ed, "text", "replaced"),
		step("press", "keys", "Control+Enter"),
	)
	text, rev, _ = snap(t, s, tab, nil)
	if !strings.Contains(text, ": replaced") || !strings.Contains(text, "chord seen") {
		t.Fatalf("after the chords:\n%s", text)
	}

	res := act(t, s, tab, rev, step("scroll", "ref", refOf(t, text, "generic", "Rows"), "delta_y", 2000))
	if st := stepsOf(res); st[0]["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("scroll: %v", res)
	}

	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Ask")))
	dialog, _ := res["dialog"].(map[string]any)
	if dialog == nil || dialog["type"] != "prompt" || dialog["message"] != "Your name?" {
		t.Fatalf("the prompt is not reported: %v", res)
	}
	act(t, s, tab, revisionOf(res), step("dialog", "accept", true, "prompt_text", "Ada"))
	text, _, _ = snap(t, s, tab, nil)
	if !strings.Contains(text, "prompt said Ada") {
		t.Fatalf("after answering the prompt:\n%s", text)
	}
}
