package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// keysCanary is what the attacks try to put into a sensitive field, one
// key at a time; no result may hold it.
const keysCanary = "CANARY"

// fieldReports records what the test pages say about their own fields:
// each Report click sends the page's counters (value length, input and
// keydown events of its sensitive field), read by the page's own script.
type fieldReports struct {
	mu   sync.Mutex
	seen map[string][]url.Values
}

func (f *fieldReports) handler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	f.mu.Lock()
	if f.seen == nil {
		f.seen = map[string][]url.Values{}
	}
	src := r.URL.Query().Get("src")
	f.seen[src] = append(f.seen[src], r.URL.Query())
	f.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (f *fieldReports) count(src string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.seen[src])
}

func (f *fieldReports) last(src string) url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.seen[src]
	return r[len(r)-1]
}

// serve answers the pages' reports on mux's /report.
func (f *fieldReports) serve(mux *http.ServeMux) *http.ServeMux {
	mux.HandleFunc("/report", f.handler)
	return mux
}

// reportScript counts what reaches the sensitive fields of its document
// (password and one-time-code inputs, card-expiry selects, the open shadow
// root's #pw, the closed one's window.sealedField): input, change, keydown
// and drop events, and the length of those inputs the page left empty
// (len) and of #code; it sends them with src, the Notes field's value and
// the expiry select's (exp), and how often its form was submitted, when
// the button "Report <src>" is clicked.
const reportScript = `<button onclick="report()">Report %[1]s</button>
<script>
const fields = [...document.querySelectorAll('input[type=password], input[autocomplete=one-time-code], select[autocomplete^=cc-exp]'),
  document.querySelector('fancy-field')?.shadowRoot.getElementById('pw'), window.sealedField].filter(Boolean);
const counted = { inputs: 0, keys: 0, drops: 0 };
for (const f of fields) { for (const type of ['input', 'change']) f.addEventListener(type, () => counted.inputs++); f.addEventListener('keydown', () => counted.keys++); f.addEventListener('drop', () => counted.drops++); }
function report() {
  const len = fields.filter((f) => f.defaultValue === '').reduce((n, f) => n + f.value.length, 0);
  const code = document.getElementById('code');
  const notes = document.getElementById('notes');
  const exp = document.getElementById('exp');
  fetch('%[2]s/report?src=%[1]s&len=' + len + '&inputs=' + counted.inputs + '&keys=' + counted.keys + '&drops=' + counted.drops +
    '&code=' + (code ? code.value.length : '') + '&notes=' + encodeURIComponent(notes ? notes.value : '') + '&exp=' + (exp ? exp.value : '') + '&submits=' + (window.submits || 0));
}
</script>`

// Key input never reaches a password or one-time-code field (issue 9,
// finding 2): type, fill and clear were refused, but a click or focus on
// the field followed by press steps, or a Tab from the field before it,
// put characters in. Every key is checked in the page right before it is
// dispatched, against the element that has focus then, in any frame and
// shadow root: the step fails sensitive_field, not_started, the batch
// stops, and the page itself reports its field empty and untouched.
func TestKeysNeverReachSensitiveFields(t *testing.T) {
	e := harness.Start(t)
	reports := &fieldReports{}
	mux := reports.serve(http.NewServeMux())
	var base string
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Sign in</title>
<form onsubmit="window.submits = (window.submits || 0) + 1; return false">
<label>User <input id="user" autocomplete="username"></label>
<label>Password <input id="pw" type="password" name="password"></label>
<label>Notes <input id="notes"></label>
<label>Memo <input id="memo"></label>
<label>Expiry month <select id="exp" autocomplete="cc-exp-month"><option value="01">01 January</option><option value="07" selected>07 July</option><option value="12">12 December</option></select></label>
<button>Sign in</button>
</form>
<iframe sandbox srcdoc="<p>Sandboxed</p>" title="Sandboxed" width="200" height="40"></iframe>
<div id="trap" contenteditable="true" role="textbox" aria-label="Trap">xyz <span id="island" contenteditable="false" tabindex="0">i</span></div>
<button onclick="document.getElementById('island').focus()">Into the trap</button>
<script>
// A hostile page. Trap holds focus (in its island) until fill focuses
// Trap itself to select its text: then focus jumps to the password
// field, after fill checked its target and before the text goes out.
document.getElementById('trap').addEventListener('focus', () => document.getElementById('pw').focus());
// A Shift pressed in Notes moves focus to the password field before the
// chord's letter goes down.
document.getElementById('notes').addEventListener('keydown', (e) => { if (e.key === 'Shift') document.getElementById('pw').focus(); });
// Any key pressed in Memo moves focus to the password field in its own
// keydown, before Chrome puts the key's character in.
document.getElementById('memo').addEventListener('keydown', () => document.getElementById('pw').focus());
</script>`+reportScript, "top", base)
	})
	mux.HandleFunc("/nested", func(w http.ResponseWriter, _ *http.Request) {
		cross := strings.Replace(base, "127.0.0.1", "localhost", 1)
		fmt.Fprintf(w, `<!doctype html><title>Nested</title>
<label>Notes <input id="notes"></label>
<iframe title="Cross" src="%s/frame?src=cross" width="400" height="120"></iframe>
<iframe title="Same" src="/frame?src=same" width="400" height="120"></iframe>
<fancy-field></fancy-field>
<sealed-field></sealed-field>
<button onclick="window.sealedField.focus()">Focus sealed</button>
<script>
customElements.define('fancy-field', class extends HTMLElement { constructor() { super();
  this.attachShadow({mode: 'open'}).innerHTML = '<label>Shadow password <input id="pw" type="password"></label>'; } });
customElements.define('sealed-field', class extends HTMLElement { constructor() { super();
  const root = this.attachShadow({mode: 'closed'});
  root.innerHTML = '<div><label>Sealed code <input id="pw" autocomplete="one-time-code"></label></div>';
  window.sealedField = root.getElementById('pw'); } });
</script>`+fmt.Sprintf(reportScript, "shadow", base), cross)
	})
	mux.HandleFunc("/frame", func(w http.ResponseWriter, r *http.Request) {
		src := r.URL.Query().Get("src")
		fmt.Fprintf(w, `<!doctype html><title>%[1]s</title><label>%[1]s password <input id="pw" type="password"></label>`+reportScript, src, base)
	})
	base = e.Serve(mux)
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	pw, user, notes, trap, report := refOf(t, text, "textbox", "Password"), refOf(t, text, "textbox", "User"), refOf(t, text, "textbox", "Notes"), refOf(t, text, "textbox", "Trap"), refOf(t, text, "button", "Report top")

	// The page's own report of its password field after each attack.
	untouched := func(what, src, reportRef string) {
		t.Helper()
		n := reports.count(src)
		act(t, s, tab, rev, step("click", "ref", reportRef))
		e.WaitFor(t, "the page's report", revokeWait, func() bool { return reports.count(src) > n })
		if r := reports.last(src); r.Get("len") != "0" || r.Get("inputs") != "0" || r.Get("keys") != "0" {
			t.Errorf("%s: the page reports its sensitive field holds %s characters after %s input and %s keydown events", what, r.Get("len"), r.Get("inputs"), r.Get("keys"))
		}
	}
	presses := func(lead ...map[string]any) []map[string]any {
		for _, c := range keysCanary {
			lead = append(lead, step("press", "keys", string(c)))
		}
		return lead
	}

	// The control: keys do reach an ordinary field (the sandboxed frame,
	// where no script of the page runs, is asked about its focus too), and
	// Enter there submits the form (a key's character goes in as a char
	// event after its rawKeyDown: act/keys.ts).
	act(t, s, tab, rev, step("click", "ref", notes), step("press", "keys", "o"), step("press", "keys", "k"), step("press", "keys", "Enter"))
	untouched("the control", "top", report)
	if got := reports.last("top"); got.Get("notes") != "ok" || got.Get("submits") != "1" {
		t.Fatalf("the ordinary field holds %q after pressing o, k, and Enter submitted the form %s times", got.Get("notes"), got.Get("submits"))
	}

	for _, c := range []struct {
		what  string
		steps []map[string]any
		at    int
	}{
		{"click on the field, then keys", presses(step("click", "ref", pw)), 1},
		{"focus on the field, then keys", presses(step("focus", "ref", pw)), 1},
		{"Tab from the field before, then keys", presses(step("focus", "ref", user), step("press", "keys", "Tab")), 2},
		{"a key aimed at the field", []map[string]any{step("press", "keys", "C", "ref", pw)}, 0},
		{"a shifted letter", []map[string]any{step("focus", "ref", pw), step("press", "keys", "Shift+C")}, 1},
		{"a paste", []map[string]any{step("focus", "ref", pw), step("press", "keys", "Control+V")}, 1},
		{"a paste with Shift+Insert", []map[string]any{step("focus", "ref", pw), step("press", "keys", "Shift+Insert")}, 1},
		{"Enter in the field", []map[string]any{step("focus", "ref", pw), step("press", "keys", "Enter")}, 1},
	} {
		keysRefused(t, s, tab, rev, c.what, c.at, protocol.OutcomeNotStarted, c.steps...)
		untouched(c.what, "top", report)
	}
	// The page moves focus into the password field after fill's checks of
	// its target, before its text goes out.
	keysRefused(t, s, tab, rev, "fill of a field the page moves focus away from", 1, protocol.OutcomeNotStarted, step("click", "ref", refOf(t, text, "button", "Into the trap")), step("fill", "ref", trap, "text", keysCanary))
	untouched("fill of a field the page moves focus away from", "top", report)
	// Focus moves between a chord's keys: the letter is refused, Shift
	// (already down) is let up again.
	keysRefused(t, s, tab, rev, "a chord whose modifier moves focus", 1, protocol.OutcomeDispatched, step("click", "ref", notes), step("press", "keys", "Shift+C"))
	untouched("a chord whose modifier moves focus", "top", report)
	// The key's own keydown moves focus: its character is refused after the
	// key went down (the key went out, so dispatched), before it goes in.
	memo := refOf(t, text, "textbox", "Memo")
	keysRefused(t, s, tab, rev, "a key whose own keydown moves focus", 1, protocol.OutcomeDispatched, step("click", "ref", memo), step("press", "keys", "C"))
	untouched("a key whose own keydown moves focus", "top", report)

	// A card-expiry select is a payment-card field (spec 000: secret field
	// values are left out): the snapshot shows neither its value nor its
	// options, and no step chooses an option in it, by select or by key.
	exp := refOf(t, text, "combobox", "Expiry month")
	for _, mode := range []string{"interactive", "full"} {
		full, _, _ := snap(t, s, tab, map[string]any{"mode": mode})
		if strings.Contains(full, "July") || strings.Contains(full, "January") || !strings.Contains(full, `combobox "Expiry month" [sensitive]`) {
			t.Errorf("the %s snapshot shows the expiry select's value or options:\n%s", mode, full)
		}
	}
	for _, c := range []struct {
		what  string
		steps []map[string]any
		at    int
	}{
		{"select an option", []map[string]any{step("select", "ref", exp, "values", []string{"12 December"})}, 0},
		{"a key aimed at the select", []map[string]any{step("press", "keys", "ArrowDown", "ref", exp)}, 0},
		{"keys after focusing the select", []map[string]any{step("focus", "ref", exp), step("press", "keys", "1")}, 1},
		{"type into the select", []map[string]any{step("type", "ref", exp, "text", "12")}, 0},
	} {
		keysRefused(t, s, tab, rev, c.what, c.at, protocol.OutcomeNotStarted, c.steps...)
		untouched(c.what, "top", report)
		if got := reports.last("top").Get("exp"); got != "07" {
			t.Errorf("%s: the expiry select holds %q, want 07", c.what, got)
		}
	}

	// Nothing is refused because a field was focused once: focus moved on.
	act(t, s, tab, rev, step("focus", "ref", pw), step("click", "ref", notes), step("press", "keys", "End"), step("press", "keys", "!"))
	untouched("keys after focus left the field", "top", report)
	if got := reports.last("top").Get("notes"); got != "ok!" {
		t.Errorf("the ordinary field holds %q after focus left the password field", got)
	}

	// Frames and shadow roots: the focused element is looked for in every
	// frame (a cross-site one is another process) and shadow root, a
	// closed one included (the page focuses a field the snapshot cannot see).
	ok(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("navigate", "url", base+"/nested")}})
	text, rev, _ = snap(t, s, tab, nil)
	for _, c := range []struct{ src, field, reportRef string }{
		{"cross", refOf(t, text, "textbox", "cross password"), refOf(t, text, "button", "Report cross")},
		{"same", refOf(t, text, "textbox", "same password"), refOf(t, text, "button", "Report same")},
		{"shadow", refOf(t, text, "textbox", "Shadow password"), refOf(t, text, "button", "Report shadow")},
	} {
		keysRefused(t, s, tab, rev, "keys into the "+c.src+" field", 1, protocol.OutcomeNotStarted, presses(step("click", "ref", c.field))...)
		untouched("keys into the "+c.src+" field", c.src, c.reportRef)
	}
	if strings.Contains(text, "Sealed code") {
		t.Fatalf("the snapshot sees into the closed shadow root; the sealed case needs another page:\n%s", text)
	}
	keysRefused(t, s, tab, rev, "keys into a closed shadow root's field", 1, protocol.OutcomeNotStarted, presses(step("click", "ref", refOf(t, text, "button", "Focus sealed")))...)
	untouched("keys into a closed shadow root's field", "shadow", refOf(t, text, "button", "Report shadow"))
	// A field focused in a frame once does not refuse keys after focus moved on.
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "textbox", "cross password")), step("click", "ref", refOf(t, text, "textbox", "Notes")), step("press", "keys", "k"))
	untouched("keys after focus left the cross field", "shadow", refOf(t, text, "button", "Report shadow"))
	if got := reports.last("shadow").Get("notes"); got != "k" {
		t.Errorf("the nested page's Notes holds %q after pressing k, want k", got)
	}

	noSecretInState(t, e, "", keysCanary)
}

// keysRefused runs a batch whose step at must fail sensitive_field with
// outcome, after the steps before it ran and with none after it run;
// no part of the result holds the canary. It returns the result.
func keysRefused(t *testing.T, s *mcp.ClientSession, tab string, rev int64, what string, at int, outcome protocol.Outcome, steps ...map[string]any) map[string]any {
	t.Helper()
	actions := make([]any, len(steps))
	for i, st := range steps {
		actions[i] = st
	}
	res, isErr := harness.CallTool(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions})
	if strings.Contains(fmt.Sprint(res), keysCanary) {
		t.Errorf("%s: the result holds the canary: %v", what, res)
	}
	got := stepsOf(res)
	if !isErr || len(got) != len(steps) {
		t.Errorf("%s: want step %d refused, got (isError %v) %v", what, at, isErr, res)
		return res
	}
	for i, st := range got {
		errObj, _ := st["error"].(map[string]any)
		switch {
		case i < at && errObj != nil:
			t.Errorf("%s: step %d failed: %v", what, i, st)
		case i == at && (errObj["code"] != string(protocol.CodeSensitiveField) || st["outcome"] != string(outcome)):
			t.Errorf("%s: step %d: %v, want sensitive_field, %s", what, i, st, outcome)
		case i > at && st["outcome"] != string(protocol.OutcomeNotStarted):
			t.Errorf("%s: step %d ran after the refusal: %v", what, i, st)
		}
	}
	return res
}

// The scripting route sends no keys: press fails debugger_unavailable.
// Its type, fill and clear set a field's value in the page agent, which
// refuses a sensitive field in the same call, named through a label's ref
// too (a label acts for its control). The page reads its fields itself.
func TestScriptingRouteWritesNoSensitiveField(t *testing.T) {
	e, blocker := blockedPage(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Scripted sign in</title>
<label>Name <input id="name"></label>
<label>Password <input id="pw" type="password"></label>
<label tabindex="0" for="code">Backup code</label> <input id="code" autocomplete="one-time-code" aria-label="Code field">
<script>
const counted = { inputs: 0 };
for (const id of ['pw', 'code']) document.getElementById(id).addEventListener('input', () => counted.inputs++);
</script>` + blocker})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	setAutomation(t, e, true)
	text, rev, res := snap(t, s, tab, map[string]any{"mode": "full"})
	if res["served_by"] != protocol.RouteScripting {
		t.Fatalf("the page was not read through the scripting route: %v", res["served_by"])
	}
	pw, name := refOf(t, text, "textbox", "Password"), refOf(t, text, "textbox", "Name")
	label := labelRef(t, text, "Backup code")
	page := func() (state struct{ Pw, Code, Name, Inputs int }) {
		t.Helper()
		e.Eval(t, `chrome.tabs.query({}).then(async (tabs) => { const tab = tabs.find((x) => x.title === "Scripted sign in");
			const [r] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, world: "MAIN", func: () => ({
				pw: document.getElementById("pw").value.length, code: document.getElementById("code").value.length,
				name: document.getElementById("name").value.length, inputs: counted.inputs }) });
			return r.result; })`, &state)
		return state
	}

	res = act(t, s, tab, rev, step("type", "ref", name, "text", "ok"))
	if st := stepsOf(res)[0]; st["served_by"] != protocol.RouteScripting {
		t.Fatalf("the control was not typed through the scripting route: %v", st)
	}
	for _, c := range []struct {
		what  string
		code  protocol.ErrorCode
		steps []map[string]any
		at    int
	}{
		{"fill through the label's ref", protocol.CodeSensitiveField, []map[string]any{step("fill", "ref", label, "text", keysCanary)}, 0},
		{"type through the label's ref", protocol.CodeSensitiveField, []map[string]any{step("type", "ref", label, "text", keysCanary)}, 0},
		{"type into the field", protocol.CodeSensitiveField, []map[string]any{step("type", "ref", pw, "text", keysCanary)}, 0},
		{"clear the field", protocol.CodeSensitiveField, []map[string]any{step("clear", "ref", pw)}, 0},
		{"keys after focus", protocol.CodeDebuggerUnavailable, []map[string]any{step("focus", "ref", pw), step("press", "keys", "C")}, 1},
		{"a key aimed at the field", protocol.CodeDebuggerUnavailable, []map[string]any{step("press", "keys", "C", "ref", pw)}, 0},
	} {
		res := actRefused(t, s, tab, rev, c.code, c.at, c.steps...)
		if st := stepsOf(res)[c.at]; st["outcome"] != string(protocol.OutcomeNotStarted) {
			t.Errorf("%s: %v", c.what, st)
		}
		if strings.Contains(fmt.Sprint(res), keysCanary) {
			t.Errorf("%s: the result holds the canary: %v", c.what, res)
		}
		if got := page(); got.Pw != 0 || got.Code != 0 || got.Inputs != 0 || got.Name != 2 {
			t.Errorf("%s: the page reports %+v", c.what, got)
		}
	}
	noSecretInState(t, e, "", keysCanary)
}

// labelRef finds the ref of the line that shows a label's text (its role
// depends on the snapshot's rules for labels, which are not under test).
func labelRef(t *testing.T, text, name string) string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "[ref="); strings.Contains(line, name) && i >= 0 {
			return strings.TrimSuffix(strings.SplitN(line[i+len("[ref="):], "]", 2)[0], "]")
		}
	}
	t.Fatalf("no line with %q and a ref:\n%s", name, text)
	return ""
}
