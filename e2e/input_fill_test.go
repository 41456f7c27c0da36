package e2e

import (
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// reactFormPage is a React 18 form of controlled inputs (the real UMD
// build): each field's value is React state, set by its onChange; Code
// keeps only digits and Team upper case, as controlled inputs do. Send
// submits the state, which the page lists.
const reactFormPage = `<!doctype html><title>React form</title>
<div id="root"></div>
<script src="/vendor/react/umd/react.production.min.js"></script>
<script src="/vendor/react-dom/umd/react-dom.production.min.js"></script>
<script>
const h = React.createElement;
const FIELDS = [
  ['name', 'Name', 'text', (v) => v],
  ['email', 'Email', 'email', (v) => v],
  ['team', 'Team', 'text', (v) => v.toUpperCase()],
  ['code', 'Code', 'text', (v) => v.replace(/\D/g, '')],
  ['day', 'Day', 'date', (v) => v],
  ['color', 'Color', 'color', (v) => v],
  ['notes', 'Notes', 'textarea', (v) => v],
];
function Form() {
  const [state, setState] = React.useState({ color: '#000000' });
  const [sent, setSent] = React.useState(null);
  const set = (k, f) => (e) => { const v = f(e.target.value); setState((s) => ({ ...s, [k]: v })); };
  return h('form', { onSubmit: (e) => { e.preventDefault(); setSent(state); } },
    ...FIELDS.map(([k, label, type, f]) => h('label', { key: k }, label + ' ',
      type === 'textarea' ? h('textarea', { value: state[k] || '', onChange: set(k, f) }) : h('input', { type, value: state[k] || '', onChange: set(k, f) }))),
    h('button', { type: 'submit' }, 'Send'),
    sent && h('ol', null, ...Object.keys(sent).sort().map((k) => h('li', { key: k }, 'sent ' + k + '=' + JSON.stringify(sent[k])))));
}
ReactDOM.createRoot(document.getElementById('root')).render(h(Form));
</script>`

// fill reaches React's controlled inputs (issue 11): the state React
// submits holds every value, a date and a colour set as their pickers
// would; a value the component reformats is taken (the receipt says how
// it reads); one it rejects fails value_not_accepted with what the field
// holds, and the batch stops.
func TestFillReactControlledForm(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": reactFormPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	field := func(name string) string { return refOfAny(t, text, name) }
	res := act(t, s, tab, rev,
		step("fill", "ref", field("Name"), "text", "Ada Lovelace"),
		step("fill", "ref", field("Email"), "text", "ada@example.com"),
		step("fill", "ref", field("Team"), "text", "analytical"),
		step("fill", "ref", field("Code"), "text", "1815"),
		step("fill", "ref", field("Day"), "text", "1843-07-10"),
		step("fill", "ref", field("Notes"), "text", "Note G\nBernoulli numbers"),
		step("click", "ref", refOf(t, text, "button", "Send")),
	)
	for _, st := range stepsOf(res)[:6] {
		if st["outcome"] != string(protocol.OutcomeConfirmed) {
			t.Errorf("step %v: %v, want confirmed", st["index"], st)
		}
	}
	if note, _ := stepsOf(res)[2]["note"].(string); !strings.Contains(note, `it holds "ANALYTICAL"`) {
		t.Errorf("the reformatted field's receipt: %v", stepsOf(res)[2])
	}
	full, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	got := strings.Join(pageLines(t, full, "sent "), " ")
	if want := `code="1815" color="#000000" day="1843-07-10" email="ada@example.com" name="Ada Lovelace" notes="Note G\nBernoulli numbers" team="ANALYTICAL"`; got != want {
		t.Errorf("React submitted %s\nwant %s", got, want)
	}

	res = actFailed(t, s, tab, rev, protocol.CodeValueNotAccepted, 1,
		step("fill", "ref", field("Color"), "text", "#FF8800"),
		step("fill", "ref", field("Code"), "text", "12ab"),
		step("click", "ref", refOf(t, text, "button", "Send")),
	)
	if st := stepsOf(res)[0]; st["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Errorf("the colour: %v", st)
	}
	stepErr, _ := stepsOf(res)[1]["error"].(map[string]any)
	if msg, _ := stepErr["message"].(string); !strings.Contains(msg, `it holds "12"`) || stepsOf(res)[1]["outcome"] != string(protocol.OutcomeDispatched) {
		t.Errorf("the rejected fill: %v", stepsOf(res)[1])
	}
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Send")))
	full, _, _ = snap(t, s, tab, map[string]any{"mode": "full"})
	got = strings.Join(pageLines(t, full, "sent "), " ")
	if !strings.Contains(got, `code="12"`) || !strings.Contains(got, `color="#ff8800"`) {
		t.Errorf("React submitted %s, want code 12 and colour #ff8800", got)
	}
}

// refOfAny finds the ref of the first line naming name, whatever its role.
func refOfAny(t *testing.T, text, name string) string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "[ref="); strings.Contains(line, `"`+name+`"`) && i >= 0 {
			return strings.SplitN(line[i+len("[ref="):], "]", 2)[0]
		}
	}
	t.Fatalf("no line naming %q with a ref:\n%s", name, text)
	return ""
}

// pickersPage has a field of each picker type; each change event is
// listed with the value the field holds then.
const pickersPage = `<!doctype html><title>Pickers</title>
<label>Day <input type="date" id="day"></label>
<label>Time <input type="time" id="time"></label>
<label>Meeting <input type="datetime-local" id="meeting"></label>
<label>Month <input type="month" id="month"></label>
<label>Week <input type="week" id="week"></label>
<label>Colour <input type="color" id="colour"></label>
<label>Volume <input type="range" id="volume" min="0" max="100" value="50"></label>
<label>Short <input id="short" maxlength="3"></label>
<ol id="changes"></ol>
<script>
for (const f of document.querySelectorAll('input')) f.addEventListener('change', () => {
  const li = document.createElement('li'); li.textContent = 'change ' + f.id + '=' + f.value; document.getElementById('changes').append(li);
});
</script>`

// fill sets date, time, datetime-local, month, week, colour and range
// inputs from their value format, as a person's picker would (issue 11
// item 4); the page's change events hold the values. A value a field does
// not take fails value_not_accepted, naming the format and what the field
// holds, and leaves the field and its events as they were.
func TestFillPickerInputs(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": pickersPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	values := [][2]string{{"Day", "2010-05-20"}, {"Time", "13:45"}, {"Meeting", "2010-05-20T13:45"}, {"Month", "2010-05"}, {"Week", "2010-W20"}, {"Colour", "#ff0000"}, {"Volume", "75"}}
	steps := []map[string]any{}
	for _, v := range values {
		steps = append(steps, step("fill", "ref", refOfAny(t, text, v[0]), "text", v[1]))
	}
	res := act(t, s, tab, rev, steps...)
	for _, st := range stepsOf(res) {
		if st["outcome"] != string(protocol.OutcomeConfirmed) {
			t.Errorf("step %v: %v, want confirmed", st["index"], st)
		}
	}
	want := "day=2010-05-20 time=13:45 meeting=2010-05-20T13:45 month=2010-05 week=2010-W20 colour=#ff0000 volume=75"
	full, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if got := strings.Join(pageLines(t, full, "change "), " "); got != want {
		t.Errorf("the page saw changes %s\nwant %s", got, want)
	}

	for _, c := range []struct{ field, value, says string }{
		{"Day", "05/20/2010", `takes yyyy-mm-dd (2010-05-20)`},
		{"Time", "1:45 PM", `takes hh:mm`},
		{"Volume", "150", `the browser made the value "100"): it holds "75"`},
		{"Short", "abcdef", `it holds "abc"`},
	} {
		res := actFailed(t, s, tab, rev, protocol.CodeValueNotAccepted, 0, step("fill", "ref", refOfAny(t, text, c.field), "text", c.value))
		stepErr, _ := stepsOf(res)[0]["error"].(map[string]any)
		if msg, _ := stepErr["message"].(string); !strings.Contains(msg, c.says) {
			t.Errorf("fill %s with %q: %v, want it to say %s", c.field, c.value, stepErr, c.says)
		}
	}
	full, _, _ = snap(t, s, tab, map[string]any{"mode": "full"})
	if got := strings.Join(pageLines(t, full, "change "), " "); got != want {
		t.Errorf("after the refused fills the page saw changes %s", got)
	}
}
