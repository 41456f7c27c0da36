package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// pageLines is what the page shows as text lines of its own (listitem
// lines of a full snapshot, after the colon), in order: the test pages
// write what they saw into list items short enough for any mode to show
// whole.
func pageLines(t *testing.T, text, prefix string) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^\s*- listitem[^:\n]*: (.*)$`).FindAllStringSubmatch(text, -1) {
		if strings.HasPrefix(m[1], prefix) {
			out = append(out, strings.TrimPrefix(m[1], prefix))
		}
	}
	return out
}

// keysPage records every key event of Log with its key, code and Shift;
// Phone is an input mask as mask plugins make one (each keypress is read,
// non-digits refused, the field reformatted as (555) 123-4567); Digits is
// a key handler that cancels the keydown of any printable key but a digit.
const keysPage = `<!doctype html><title>Keys</title>
<label>Log <input id="log"></label>
<label>Phone <input id="phone"></label>
<label>Digits <input id="digits"></label>
<label>Notes <textarea id="notes"></textarea></label>
<ol id="seen"></ol>
<script>
const seen = (s) => { const li = document.createElement('li'); li.textContent = s; document.getElementById('seen').append(li); };
const log = document.getElementById('log');
for (const type of ['keydown', 'keypress', 'keyup']) log.addEventListener(type, (e) => seen('key ' + type + ' ' + e.key + ' ' + e.code + (e.shiftKey ? ' shift' : '')));
log.addEventListener('input', (e) => seen('key input ' + e.inputType + ' ' + e.data));
const phone = document.getElementById('phone');
phone.addEventListener('keypress', (e) => {
  e.preventDefault();
  if (!/^[0-9]$/.test(e.key)) return;
  const d = (phone.value.replace(/\D/g, '') + e.key).slice(0, 10);
  phone.value = d.length > 6 ? '(' + d.slice(0, 3) + ') ' + d.slice(3, 6) + '-' + d.slice(6) : d.length > 3 ? '(' + d.slice(0, 3) + ') ' + d.slice(3) : d;
});
document.getElementById('digits').addEventListener('keydown', (e) => { if (e.key.length === 1 && !/[0-9]/.test(e.key)) e.preventDefault(); });
document.getElementById('notes').addEventListener('keydown', (e) => { if (e.key === 'Enter') seen('notes Enter'); });
function report() { for (const id of ['phone', 'digits', 'notes']) seen('value ' + id + '=' + JSON.stringify(document.getElementById(id).value)); }
</script>
<button onclick="report()">Report</button>`

// type sends a person's key events per character (issue 11): keydown,
// keypress, input and keyup with the key and code of a US keyboard and
// Shift for upper case and shifted symbols, so that an input mask and a
// key handler react as they do for a person; characters no key types go
// in as text; a line break is Enter in a textarea. The page records what
// it saw.
func TestTypeSendsKeyEventsPerCharacter(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": keysPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	res := act(t, s, tab, rev,
		step("type", "ref", refOf(t, text, "textbox", "Log"), "text", "aB!é"),
		step("type", "ref", refOf(t, text, "textbox", "Phone"), "text", "5551234567"),
		step("type", "ref", refOf(t, text, "textbox", "Digits"), "text", "12ab34"),
		step("type", "ref", refOf(t, text, "textbox", "Notes"), "text", "one\ntwo"),
		step("click", "ref", refOf(t, text, "button", "Report")),
	)
	steps := stepsOf(res)
	for i, want := range []string{"confirmed", "confirmed", "dispatched", "confirmed"} {
		if steps[i]["outcome"] != want {
			t.Errorf("step %d: %v, want %s", i, steps[i], want)
		}
	}
	if note, _ := steps[1]["note"].(string); !strings.Contains(note, `formatted it: it holds "(555) 123-4567"`) {
		t.Errorf("the masked field's receipt: %v", steps[1])
	}
	if note, _ := steps[2]["note"].(string); !strings.Contains(note, `the field now holds "1234"`) {
		t.Errorf("the key handler's field's receipt: %v", steps[2])
	}
	full, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	got := strings.Join(pageLines(t, full, "key "), "\n")
	want := strings.Join([]string{
		"keydown a KeyA", "keypress a KeyA", "input insertText a", "keyup a KeyA",
		"keydown B KeyB shift", "keypress B KeyB shift", "input insertText B", "keyup B KeyB shift",
		"keydown ! Digit1 shift", "keypress ! Digit1 shift", "input insertText !", "keyup ! Digit1 shift",
		// No key of a US keyboard types é: it goes in as an input method commits it.
		"input insertText é",
	}, "\n")
	if got != want {
		t.Errorf("the page saw in Log:\n%s\nwant:\n%s", got, want)
	}
	values := strings.Join(pageLines(t, full, "value "), " ")
	if values != `phone="(555) 123-4567" digits="1234" notes="one\ntwo"` {
		t.Errorf("the page's fields hold %s", values)
	}
	if enters := pageLines(t, full, "notes "); len(enters) != 1 {
		t.Errorf("the textarea saw Enter %d times, want once", len(enters))
	}
}

// xtermPage is a terminal built with xterm.js, which reads keys through a
// hidden textarea (opacity 0, 0×0, far left); the page shows each line
// xterm's onData delivered up to a carriage return.
const xtermPage = `<!doctype html><title>Terminal</title>
<link rel="stylesheet" href="/vendor/@xterm/xterm/css/xterm.css">
<section aria-label="Shell"><div id="terminal" style="width:640px;height:240px"></div></section>
<ol id="ran"></ol>
<script src="/vendor/@xterm/xterm/lib/xterm.js"></script>
<script>
const term = new Terminal();
term.open(document.getElementById('terminal'));
term.write('$ ');
let line = '';
term.onData((d) => {
  for (const ch of d) {
    if (ch !== '\r') { line += ch; term.write(ch); continue; }
    const li = document.createElement('li'); li.textContent = 'ran ' + line; document.getElementById('ran').append(li);
    line = ''; term.write('\r\n$ ');
  }
});
</script>`

// A terminal reads keys through a transparent textarea: type, press and
// fill reach it, focused without a pointer, whether the ref is the
// textarea itself or the terminal's container (issue 11 item 5); pointer
// input on a transparent target stays refused. The page records the
// commands xterm.js received.
func TestKeysReachATerminalsHiddenInput(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": xtermPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	input, shell := refOf(t, text, "textbox", "Terminal input"), refOf(t, text, "region", "Shell")
	act(t, s, tab, rev,
		step("type", "ref", input, "text", "echo hi\n"),
		step("type", "ref", shell, "text", "ls -l"),
		step("press", "ref", shell, "keys", "Enter"),
		step("fill", "ref", input, "text", "pwd"),
		step("press", "ref", input, "keys", "Enter"),
	)
	full, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if got := strings.Join(pageLines(t, full, "ran "), "|"); got != "echo hi|ls -l|pwd" {
		t.Errorf("the terminal ran %q, want echo hi, ls -l, pwd:\n%s", got, full)
	}
	actRefused(t, s, tab, rev, protocol.CodeTargetNotActionable, 0, step("click", "ref", input))
}

// The key guard holds per key while type sends key events (issue 9): a
// field whose keydown (or keyup) moves focus to a password field after
// two keys gets those two; the next key's character, and every key
// after, is refused (the step dispatched, the batch stopped), and the
// page reports its password field untouched. A terminal's hidden input
// that is a password field is refused before anything is sent.
func TestTypeKeysNeverReachSensitiveFields(t *testing.T) {
	e := harness.Start(t)
	reports := &fieldReports{}
	mux := reports.serve(http.NewServeMux())
	var base string
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Hostile</title>
<label>Name <input id="name"></label>
<label>Memo <input id="memo"></label>
<label>Password <input id="pw" type="password"></label>
<section aria-label="Secret editor"><input id="hidden" type="password" style="opacity:0;width:0;height:0;border:0;padding:0"></section>
<script>
let n = 0;
document.getElementById('name').addEventListener('keydown', () => { if (++n === 3) document.getElementById('pw').focus(); });
let m = 0;
document.getElementById('memo').addEventListener('keyup', () => { if (++m === 2) document.getElementById('pw').focus(); });
</script>`+reportScript, "top", base)
	})
	base = e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	for _, c := range []struct {
		what    string
		outcome protocol.Outcome
		steps   []map[string]any
	}{
		{"type into a field whose third keydown focuses a password field", protocol.OutcomeDispatched,
			[]map[string]any{step("type", "ref", refOf(t, text, "textbox", "Name"), "text", "ab"+keysCanary), step("press", "keys", "X")}},
		// The check after the second key answered as its key up arrived,
		// before this handler ran: the keys that follow, aimed at the
		// password field, are stopped in the page.
		{"type into a field whose second keyup focuses a password field", protocol.OutcomeDispatched,
			[]map[string]any{step("type", "ref", refOf(t, text, "textbox", "Memo"), "text", "ab"+keysCanary)}},
		{"type into an editor container whose hidden input is a password field", protocol.OutcomeNotStarted,
			[]map[string]any{step("type", "ref", refOf(t, text, "region", "Secret editor"), "text", keysCanary)}},
	} {
		keysRefused(t, s, tab, rev, c.what, 0, c.outcome, c.steps...)
		n := reports.count("top")
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Report top")))
		e.WaitFor(t, "the page's report", revokeWait, func() bool { return reports.count("top") > n })
		if r := reports.last("top"); r.Get("len") != "0" || r.Get("inputs") != "0" || r.Get("keys") != "0" {
			t.Errorf("%s: the page reports its password fields hold %s characters after %s input and %s keydown events", c.what, r.Get("len"), r.Get("inputs"), r.Get("keys"))
		}
	}
	noSecretInState(t, e, "", keysCanary)
}
