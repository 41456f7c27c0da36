package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// unpackedID is Chromium's id for an unpacked extension without a key:
// the first 16 bytes of the SHA-256 of its absolute path, hex digits
// mapped to a–p.
func unpackedID(path string) string {
	sum := sha256.Sum256([]byte(path))
	h := hex.EncodeToString(sum[:16])
	var b strings.Builder
	for _, c := range h {
		if c >= 'a' {
			b.WriteByte(byte('a' + 10 + (c - 'a')))
		} else {
			b.WriteByte(byte('a' + (c - '0')))
		}
	}
	return b.String()
}

// blockedPage starts AgentTab beside the blocker extension and returns
// the tag of an iframe that makes Chrome refuse AgentTab's debugger on any
// page that holds it (TestDebuggerRefusedForReal says why).
func blockedPage(t *testing.T, opts ...harness.Option) (*harness.Env, string) {
	t.Helper()
	dir, err := filepath.Abs("testdata/blocker")
	if err != nil {
		t.Fatal(err)
	}
	e := harness.Start(t, append([]harness.Option{harness.WithExtension(dir)}, opts...)...)
	return e, `<iframe src="chrome-extension://` + unpackedID(dir) + `/frame.html"></iframe>`
}

// Chrome refuses chrome.debugger for real on a page that embeds another
// extension's frame ("Cannot access a chrome-extension:// URL of different
// extension", observed in Chromium 156; another extension holding the
// debugger on the tab does not make it refuse). Page work fails
// debugger_unavailable, not_started; the refusal is remembered, so the
// next call does not attach again (each attach flashes Chrome's banner);
// after the tab navigates the debugger is tried again. Tab-lifecycle steps
// work throughout.
func TestDebuggerRefusedForReal(t *testing.T) {
	e, blocker := blockedPage(t)
	base := e.ServePages(map[string]string{
		"/":      `<!doctype html><title>Framed</title><h1>Framed</h1>` + blocker,
		"/plain": page("Plain"),
	})
	s := e.MCP(t)
	opened := ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab := handleOf(t, opened)
	// Every attach attempt flashes Chrome's banner: count them in the worker.
	e.Eval(t, `(() => { const real = chrome.debugger.attach.bind(chrome.debugger); globalThis.attachTries = 0;
		chrome.debugger.attach = (...args) => { globalThis.attachTries++; return real(...args); }; return true; })()`, nil)
	tries := func() int {
		var n int
		e.Eval(t, `globalThis.attachTries`, &n)
		return n
	}

	first := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDebuggerUnavailable)
	if first["outcome"] != string(protocol.OutcomeNotStarted) || strings.Contains(fmt.Sprint(first["message"]), "s ago") {
		t.Fatalf("first refusal: %v", first)
	}
	again := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDebuggerUnavailable)
	if !strings.Contains(fmt.Sprint(again["message"]), "s ago; not tried again") {
		t.Errorf("the second call attached again instead of repeating the refusal: %v", again)
	}
	rev := int64(tabOf(t, opened)["page_revision"].(float64))
	actRefused(t, s, tab, rev, protocol.CodeDebuggerUnavailable, 0, step("click", "ref", "e1"))
	refused(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "Framed"}, protocol.CodeDebuggerUnavailable)
	if n := tries(); n != 1 {
		t.Errorf("%d attach attempts for four refused calls, want 1 (the refusal is remembered)", n)
	}

	// Navigation needs no debugger; after it, the debugger is tried again.
	res := act(t, s, tab, rev, step("navigate", "url", base+"/plain"))
	if text, _, _ := snap(t, s, tab, nil); !strings.Contains(text, "Plain") || revisionOf(res) <= rev {
		t.Errorf("after the navigation the snapshot reads:\n%s", text)
	}
	if n := tries(); n != 2 {
		t.Errorf("%d attach attempts after the navigation, want 2 (tried once more)", n)
	}
}

// With automation on (the popup's switch grants scripting), a page where
// Chrome refuses the debugger is read and acted on through the scripting
// route: snapshots say so, clicks and text fields work with DOM events,
// refs stay bound to the document, and work only the debugger can do is
// refused debugger_unavailable, not_started. Automation off: refused again.
func TestScriptingRouteWhenTheDebuggerIsRefused(t *testing.T) {
	e, blocker := blockedPage(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Framed</title><h1>Framed</h1>
<label>Name <input id="n"></label><label><input type="checkbox" id="c"> Agree</label>
<select aria-label="Size"><option>Small</option><option>Large</option></select><button onclick="document.getElementById('out').textContent = 'hello ' + document.getElementById('n').value">Greet</button>
<p id="out">-</p>` + blocker})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDebuggerUnavailable)

	setAutomation(t, e, true)

	text, rev, res := snap(t, s, tab, nil)
	if res["served_by"] != protocol.RouteScripting || !strings.Contains(text, `textbox "Name"`) {
		t.Fatalf("scripting-route snapshot: %v\n%s", res["served_by"], text)
	}
	res = act(t, s, tab, rev, step("fill", "ref", refOf(t, text, "textbox", "Name"), "text", "Ada"), step("click", "ref", refOf(t, text, "button", "Greet")),
		step("check", "ref", refOf(t, text, "checkbox", "Agree")), step("select", "ref", refOf(t, text, "combobox", "Size"), "values", []string{"Large"}))
	for _, st := range stepsOf(res) {
		if st["served_by"] != protocol.RouteScripting {
			t.Errorf("step %v does not say it went through the scripting route", st)
		}
	}
	if after, _, _ := snap(t, s, tab, map[string]any{"mode": "full"}); !strings.Contains(after, "hello Ada") || !strings.Contains(after, `checkbox "Agree" [checked]`) || !strings.Contains(after, "Large") {
		t.Errorf("the scripted fill and click did not reach the page:\n%s", after)
	}
	for _, st := range []map[string]any{step("hover", "ref", refOf(t, text, "button", "Greet")), step("press", "keys", "Enter")} {
		actRefused(t, s, tab, rev, protocol.CodeDebuggerUnavailable, 0, st)
	}
	refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab, "screenshot": "viewport"}, protocol.CodeDebuggerUnavailable)

	setAutomation(t, e, false)
	refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDebuggerUnavailable)
	actRefused(t, s, tab, rev, protocol.CodeDebuggerUnavailable, 0, step("click", "ref", refOf(t, text, "button", "Greet")))

	// On again: the route serves the page again (refs of the earlier snapshot still bound to its document).
	setAutomation(t, e, true)
	if again, _, res := snap(t, s, tab, nil); res["served_by"] != protocol.RouteScripting || !strings.Contains(again, "Greet") {
		t.Errorf("automation on again: served_by %v\n%s", res["served_by"], again)
	}
}
