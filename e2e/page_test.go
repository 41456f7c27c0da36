package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

const canaryPassword = "canary-pass-8d41e"

const formPage = `<!doctype html><title>Booking</title>
<h1>Book a table</h1>
<form id="f" method="post" action="/submit">
<label>Full name <input name="name"></label>
<label for="email">Email</label><input id="email" name="email" type="email">
<label>Phone <input name="phone" type="tel"></label>
<label>Website <input name="site" type="url"></label>
<label>Guests <input name="guests" type="number"></label>
<label>Search <input name="q" type="search"></label>
<label>Password <input name="password" type="password" value="` + canaryPassword + `"></label>
<label>Size <select name="size"><option>Small</option><option value="m">Medium</option><option>Large</option></select></label>
<label>Toppings <select name="toppings" multiple><option>Cheese</option><option>Ham</option><option>Olives</option></select></label>
<label><input type="checkbox" name="news"> Newsletter</label>
<label><input type="checkbox" name="terms" checked> Terms</label>
<fieldset><legend>Delivery</legend>
<label><input type="radio" name="delivery" value="pickup"> Pickup</label>
<label><input type="radio" name="delivery" value="courier"> Courier</label></fieldset>
<label>Notes <textarea name="notes"></textarea></label>
<div contenteditable="true" role="textbox" aria-label="Message" id="msg"></div>
<input type="hidden" name="message" id="message">
<button type="submit">Book</button>
</form>
<script>document.getElementById('f').addEventListener('submit', () => {
  document.getElementById('message').value = document.getElementById('msg').textContent;
});</script>`

// received records what the form server got.
type received struct {
	mu   sync.Mutex
	form url.Values
}

func (r *received) handler(w http.ResponseWriter, req *http.Request) {
	req.ParseForm()
	r.mu.Lock()
	r.form = req.PostForm
	r.mu.Unlock()
	fmt.Fprint(w, `<!doctype html><title>Booked</title><h1>Thank you</h1><a href="/">Back</a>`)
}

func (r *received) get() url.Values {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.form
}

func TestFormFilledAndSubmittedThroughRefs(t *testing.T) {
	e := harness.Start(t)
	rec := &received{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, formPage) })
	mux.HandleFunc("/submit", rec.handler)
	base := e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	if strings.Contains(text, canaryPassword) {
		t.Fatalf("the snapshot shows a password value:\n%s", text)
	}
	res := act(t, s, tab, rev,
		step("fill", "ref", refOf(t, text, "textbox", "Full name"), "text", "Ada Lovelace"),
		step("fill", "ref", refOf(t, text, "textbox", "Email"), "text", "ada@example.com"),
		step("fill", "ref", refOf(t, text, "textbox", "Phone"), "text", "+44 20 7946 0000"),
		step("type", "ref", refOf(t, text, "textbox", "Website"), "text", "https://ada.example"),
		step("fill", "ref", refOf(t, text, "spinbutton", "Guests"), "text", "4"),
		step("fill", "ref", refOf(t, text, "searchbox", "Search"), "text", "window seat"),
		step("select", "ref", refOf(t, text, "combobox", "Size"), "values", []string{"Medium"}),
		step("select", "ref", refOf(t, text, "listbox", "Toppings"), "values", []string{"Cheese", "Olives"}),
		step("check", "ref", refOf(t, text, "checkbox", "Newsletter")),
		step("uncheck", "ref", refOf(t, text, "checkbox", "Terms")),
		step("check", "ref", refOf(t, text, "radio", "Courier")),
		step("fill", "ref", refOf(t, text, "textbox", "Notes"), "text", "line one\nline two"),
		step("type", "ref", refOf(t, text, "textbox", "Message"), "text", "Hello from an agent"),
		step("click", "ref", refOf(t, text, "button", "Book")),
	)
	steps := stepsOf(res)
	if len(steps) != 14 {
		t.Fatalf("%d receipts: %v", len(steps), res)
	}
	for _, st := range steps[:13] {
		if st["outcome"] != string(protocol.OutcomeConfirmed) {
			t.Errorf("step %v: outcome %v, want confirmed (%v)", st["index"], st["outcome"], st)
		}
	}
	if nav := steps[13]["navigation"]; nav != string(protocol.NavigationCommitted) {
		t.Errorf("submit navigation %v, want committed", nav)
	}
	if revisionOf(res) <= rev {
		t.Errorf("revision %d did not advance past %d", revisionOf(res), rev)
	}
	got := rec.get()
	want := url.Values{
		"name": {"Ada Lovelace"}, "email": {"ada@example.com"}, "phone": {"+44 20 7946 0000"}, "site": {"https://ada.example"},
		"guests": {"4"}, "q": {"window seat"}, "password": {canaryPassword}, "size": {"m"}, "toppings": {"Cheese", "Olives"},
		"news": {"on"}, "delivery": {"courier"}, "notes": {"line one\r\nline two"}, "message": {"Hello from an agent"},
	}
	for k, v := range want {
		if !slices.Equal(got[k], v) {
			t.Errorf("the page received %s=%q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["terms"]; ok {
		t.Errorf("terms still checked: %v", got)
	}
}

// refusalsPage counts every input event that reaches it (in the capture
// phase, before any handler of the target) and shows the count, so a test
// can prove a refused step dispatched nothing.
const refusalsPage = `<!doctype html><title>Refusals</title>
<style>#cover{position:fixed;left:0;top:0;width:100%;height:120px;background:rgba(0,0,0,.3)} #covered{position:absolute;top:40px;left:20px}
@keyframes slide{from{margin-left:0}to{margin-left:300px}} #moving{animation:slide .6s linear infinite alternate}</style>
<button id="covered">Covered</button><div id="cover"></div>
<div style="margin-top:160px"><div><button id="moving">Moving</button></div>
<button disabled>Disabled</button>
<button style="opacity:0">Invisible</button>
<label>Secret <input type="password"></label>
<button onclick="document.getElementById('v').style.display='none'">Hide it</button><button id="v">Vanishing</button>
<a href="/next">Next page</a></div>
<p id="events">input events: 0</p>
<script>
let counted = 0;
for (const type of ["pointerdown", "mousedown", "mouseup", "click", "keydown", "keyup", "beforeinput", "input", "focusin"]) {
  document.addEventListener(type, () => { document.getElementById("events").textContent = "input events: " + ++counted; }, true);
}
</script>`

// Each refusal is checked on the receipts (the step's index, not_started,
// nothing after it run) and on the page's own count of input events.
func TestRefusalsDispatchNothing(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": refusalsPage, "/next": page("Next")})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	events := func() string {
		t.Helper()
		text, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
		if m := regexp.MustCompile(`input events: \d+`).FindString(text); m != "" {
			return m
		}
		t.Fatalf("the page shows no count of input events:\n%s", text)
		return ""
	}
	seen := events()
	refusal := func(what string, rev int64, code protocol.ErrorCode, at int, steps ...map[string]any) {
		t.Helper()
		actRefused(t, s, tab, rev, code, at, steps...)
		if now := events(); now != seen {
			t.Fatalf("%s: the page shows %q after a refused batch, %q before", what, now, seen)
		}
	}

	refusal("covered", rev, protocol.CodeTargetCovered, 0, step("click", "ref", refOf(t, text, "button", "Covered")))
	refusal("moving", rev, protocol.CodeTargetMoving, 0, step("click", "ref", refOf(t, text, "button", "Moving")))
	refusal("disabled", rev, protocol.CodeTargetNotActionable, 0, step("click", "ref", refOf(t, text, "button", "Disabled")))
	// opacity:0 is listed (Chrome's tree lists it too); pointer input on it is refused.
	refusal("invisible", rev, protocol.CodeTargetNotActionable, 0, step("click", "ref", refOf(t, text, "button", "Invisible")))
	// An element hidden after the snapshot is refused, not clicked.
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Hide it")))
	if seen = events(); seen == "input events: 0" {
		t.Fatalf("the page counted no input events for a click it received")
	}
	refusal("vanishing", rev, protocol.CodeTargetNotActionable, 0, step("click", "ref", refOf(t, text, "button", "Vanishing")))
	refusal("secret", rev, protocol.CodeSensitiveField, 0, step("type", "ref", refOf(t, text, "textbox", "Secret"), "text", "hunter2"))
	refusal("future revision", rev+1, protocol.CodeStaleRevision, beforeSteps, step("click", "ref", refOf(t, text, "link", "Next page")))

	// A later step after a refused one is not started.
	refusal("a step after a refusal", rev, protocol.CodeTargetNotActionable, 0,
		step("click", "ref", refOf(t, text, "button", "Disabled")), step("click", "ref", refOf(t, text, "link", "Next page")))
	if u := ok(t, s, protocol.MethodTabs, map[string]any{"tab": tab}); strings.Contains(fmt.Sprint(u), "/next") {
		t.Fatalf("a refused batch navigated: %v", u)
	}

	// Navigate through a link: committed, revision advanced, old refs stale.
	link := refOf(t, text, "link", "Next page")
	res := act(t, s, tab, rev, step("click", "ref", link))
	if st := stepsOf(res); st[0]["navigation"] != string(protocol.NavigationCommitted) || revisionOf(res) <= rev {
		t.Fatalf("navigating click: %v", res)
	}
	actRefused(t, s, tab, revisionOf(res), protocol.CodeStaleRef, 0, step("click", "ref", link))
	// The revision the navigation left is refused, not only a future one.
	actRefused(t, s, tab, rev, protocol.CodeStaleRevision, beforeSteps, step("click", "ref", link))
}

func TestWaitsAndTextWindows(t *testing.T) {
	e := harness.Start(t)
	var b strings.Builder
	b.WriteString(`<!doctype html><title>Long</title><h1>Long list</h1><ul>`)
	for i := range 3000 {
		fmt.Fprintf(&b, "<li>Item number %d of the long list</li>", i)
	}
	b.WriteString(`</ul><p id="late"></p><script>setTimeout(() => { document.getElementById('late').textContent = 'Arrived late'; history.pushState({}, '', '#moved'); }, 600)</script>`)
	base := e.ServePages(map[string]string{"/": b.String()})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))

	w := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "Arrived late", "timeout_ms": 5000})
	if w["satisfied"] != true {
		t.Fatalf("text wait: %v", w)
	}
	w = ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "url", "url": "*#moved", "timeout_ms": 5000})
	if w["satisfied"] != true {
		t.Fatalf("url wait: %v", w)
	}
	w = ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "never there", "timeout_ms": 300})
	if w["satisfied"] != false || w["last_seen"] == "" {
		t.Fatalf("a timed-out wait: %v", w)
	}

	_, _, first := snap(t, s, tab, map[string]any{"mode": "readable", "max_chars": 1000, "cache_key": "list", "capture_chars": 400000})
	cov, _ := first["coverage"].(map[string]any)
	if first["status"] != string(protocol.SnapshotTruncated) || cov["end"] != float64(1000) || cov["total"].(float64) < 50000 {
		t.Fatalf("readable window: status %v coverage %v", first["status"], cov)
	}
	_, _, found := snap(t, s, tab, map[string]any{"mode": "readable", "max_chars": 200, "cache_key": "list", "find": "Item number 2999"})
	if found["found"] != true || !strings.Contains(found["text"].(string), "Item number 2999") {
		t.Fatalf("find in the capture: %v", found)
	}

	shot := ok(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab, "screenshot": "viewport", "max_chars": 10})
	ref, _ := shot["screenshot"].(map[string]any)
	if ref == nil || ref["mime_type"] != "image/png" || ref["bytes"].(float64) < 100 {
		t.Fatalf("screenshot by reference: %v", shot["screenshot"])
	}
}

func TestAWaitDoesNotHoldUpTheTask(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Idle</title><button>Press</button>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	done := make(chan time.Time, 1)
	go func() {
		harness.CallTool(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "never", "timeout_ms": 3000})
		done <- time.Now()
	}()
	time.Sleep(300 * time.Millisecond)
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Press")))
	acted := time.Now()
	if waited := <-done; !acted.Before(waited) {
		t.Fatal("the click waited for the task's browser_wait")
	}
}
