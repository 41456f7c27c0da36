package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// dragCode is the one-time code the drag page holds; no drag may carry it
// out of its field, and no result may hold it.
const dragCode = "424242"

// A drag drops a link's (or a selection's) text where it ends, and takes
// text out of the field it starts in (issue 9, review of finding 2).
// Before, a drag whose to_ref was a password field, a region whose centre
// is one, a closed shadow root holding one or a frame showing one put the
// link's URL into it, and a drag from a one-time-code field (a plain text
// input; a double click selects the code) carried the code into Notes,
// where snapshots show it. Observed in Chromium 156: a drop onto a
// cross-site frame put nothing in but left the tab taking no clicks. Each
// is refused sensitive_field, not_started (so is a drop on a password
// field's label, as for keys): the press and drop points are checked for
// what receives the pointer there, through frames and closed shadow
// roots, and the pages report their fields untouched and the code in
// place.
func TestDragsNeverCarryTextIntoOrOutOfSensitiveFields(t *testing.T) {
	e := harness.Start(t)
	reports := &fieldReports{}
	mux := reports.serve(http.NewServeMux())
	var base string
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		cross := strings.Replace(base, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Drag sign in</title>
<style>body{font:16px sans-serif} input,textarea{font:16px monospace}</style>
<p><a href="/next">Next page</a></p>
<p><input id="pw" type="password" name="password" aria-label="Password"></p>
<p><label tabindex="0" for="pw">Password label</label></p>
<div role="region" aria-label="Wrapper" style="width:220px;padding:2px;border:1px solid #888"><input id="pw2" type="password" aria-label="Wrapped password" style="width:210px"></div>
<p><label>Code <input id="code" autocomplete="one-time-code" value="%[2]s" size="8" style="text-align:center"></label></p>
<p><label>Notes <textarea id="notes" rows="2" cols="40"></textarea></label></p>
<sealed-code role="region" aria-label="Sealed" style="display:block;width:220px"></sealed-code>
<script>
customElements.define('sealed-code', class extends HTMLElement { constructor() { super();
  const root = this.attachShadow({mode: 'closed'});
  root.innerHTML = '<input type="password" aria-label="Sealed password" style="width:210px">';
  window.sealedField = root.querySelector('input'); } });
</script>
<iframe title="Card frame" src="/frame?src=same" width="320" height="100" style="border:0"></iframe>
<iframe title="Cross frame" src="%[1]s/frame?src=cross" width="320" height="100" style="border:0"></iframe>
`+fmt.Sprintf(reportScript, "top", base), cross, dragCode)
	})
	mux.HandleFunc("/frame", func(w http.ResponseWriter, r *http.Request) {
		// The field fills the frame's middle: rows 25 to 95 of its 100.
		fmt.Fprintf(w, `<!doctype html><title>Card frame</title><style>body{margin:0} button{position:absolute;top:0;left:0;height:25px}</style>
<input type="password" aria-label="Card password" style="display:block;margin-top:25px;width:320px;height:70px;box-sizing:border-box;font:16px monospace">`+reportScript,
			r.URL.Query().Get("src"), base)
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `<!doctype html><title>Next</title>`) })
	base = e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	link, notes, code := refOf(t, text, "link", "Next page"), refOf(t, text, "textbox", "Notes"), refOf(t, text, "textbox", "Code")

	// The page's own report after each attack: nothing reached a password
	// field, the code is still in its field and Notes holds want.
	untouched := func(what, src, want string) {
		t.Helper()
		n := reports.count(src)
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Report "+src)))
		e.WaitFor(t, "the page's report", revokeWait, func() bool { return reports.count(src) > n })
		r := reports.last(src)
		if r.Get("len") != "0" || r.Get("inputs") != "0" || r.Get("drops") != "0" {
			t.Errorf("%s: the page reports its password fields hold %s characters after %s input and %s drop events", what, r.Get("len"), r.Get("inputs"), r.Get("drops"))
		}
		if src == "top" && (r.Get("code") != fmt.Sprint(len(dragCode)) || r.Get("notes") != want) {
			t.Errorf("%s: the page reports a code of %s characters and Notes %q, want %d and %q", what, r.Get("code"), r.Get("notes"), len(dragCode), want)
		}
	}
	// The refusal names the field the pointer found (never a value).
	refused := func(what, field string, at int, steps ...map[string]any) {
		t.Helper()
		res := keysRefused(t, s, tab, rev, what, at, protocol.OutcomeNotStarted, steps...)
		if st := stepsOf(res); len(st) > at {
			if msg := fmt.Sprint(st[at]["error"]); !strings.Contains(msg, field) || strings.Contains(msg, dragCode) {
				t.Errorf("%s: the refusal %s does not name %s (or holds the code)", what, msg, field)
			}
		}
	}

	for _, c := range []struct{ what, to, field string }{
		{"a link dropped on a password field", refOf(t, text, "textbox", "Password"), `textbox "Password"`},
		{"a link dropped on a region whose centre is a password field", refOf(t, text, "region", "Wrapper"), `textbox "Wrapped password"`},
		{"a link dropped on a password field's label", labelRef(t, text, "Password label"), "label"},
		{"a link dropped on a closed shadow root's password field", refOf(t, text, "region", "Sealed"), `a field inside region "Sealed"`},
		{"a link dropped on a frame showing a password field", refOf(t, text, "iframe", "Card frame"), `textbox "Card password"`},
		{"a link dropped on a cross-site frame showing a password field", refOf(t, text, "iframe", "Cross frame"), `textbox "Card password"`},
	} {
		refused(c.what, c.field, 0, step("drag", "ref", link, "to_ref", c.to))
		for _, src := range []string{"same", "cross", "top"} {
			untouched(c.what, src, "")
		}
	}
	// The code selected (a double click selects its one word), then dragged.
	refused("the code dragged out of its field", `textbox "Code"`, 1, step("double_click", "ref", code), step("drag", "ref", code, "to_ref", notes))
	untouched("the code dragged out of its field", "top", "")

	// The control: the same drag onto an ordinary field drops the link.
	act(t, s, tab, rev, step("drag", "ref", link, "to_ref", notes))
	untouched("the control", "top", base+"/next")

	after, _, res := snap(t, s, tab, map[string]any{"mode": "full"})
	if strings.Contains(after, dragCode) || strings.Contains(fmt.Sprint(res), dragCode) {
		t.Errorf("the code left its field:\n%s", after)
	}
	noSecretInState(t, e, "", dragCode)
}
