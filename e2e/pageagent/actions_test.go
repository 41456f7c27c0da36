package pageagent

import (
	"math"
	"strings"
	"testing"
)

// refs snapshots the page (full mode) and returns the ref of each element
// line, keyed by `role "name"`.
func refs(t testing.TB, p *tab) map[string]string {
	t.Helper()
	s := p.snapshot(t, SnapshotRequest{Mode: "full", NextID: 1})
	out := map[string]string{}
	for _, l := range lines(t, s.Text) {
		out[l.role+` "`+l.name+`"`] = l.ref
	}
	return out
}

func ref(t testing.TB, r map[string]string, key string) string {
	t.Helper()
	v, ok := r[key]
	if !ok {
		t.Fatalf("no element %s in the snapshot (have %v)", key, r)
	}
	return v
}

func TestTarget(t *testing.T) {
	p := open(t, "/actions.html")
	r := refs(t, p)
	for _, c := range []struct {
		key, reason string
	}{
		{`button "Plain"`, ""},
		{`button "Covered"`, ""}, // covered is hitTest's business
		{`button "Disabled"`, "disabled"},
		{`button "Aria disabled"`, "disabled"},
		{`button "Transparent"`, "transparent"},
		{`button "In transparent"`, "transparent"},
	} {
		var info TargetInfo
		p.call(t, &info, "target", ref(t, r, c.key))
		if info.OK != (c.reason == "") || info.Reason != c.reason {
			t.Errorf("target(%s) = %+v, want reason %q", c.key, info, c.reason)
		}
		if info.Description != c.key {
			t.Errorf("target(%s) describes %q", c.key, info.Description)
		}
	}
	// visibility:hidden is not in the snapshot; a ref from before it was hidden is refused.
	plain := ref(t, r, `button "Plain"`)
	p.pageEval(t, `document.getElementById("plain").style.visibility = "hidden"`, nil)
	var info TargetInfo
	if p.call(t, &info, "target", plain); info.Reason != "hidden" {
		t.Errorf("target(hidden) = %+v", info)
	}
	var state string
	if p.call(t, &state, "state", plain); state != "hidden" {
		t.Errorf("state(hidden) = %q", state)
	}
	p.pageEval(t, `document.getElementById("plain").style.visibility = ""`, nil)
	if p.call(t, &state, "state", plain); state != "enabled" {
		t.Errorf("state(shown) = %q", state)
	}
	if p.call(t, &state, "state", ref(t, r, `button "Disabled"`)); state != "disabled" {
		t.Errorf("state(disabled) = %q", state)
	}

	// An element below the fold is scrolled into view and reported in
	// viewport coordinates.
	var vp struct{ W, H float64 }
	p.eval(t, `({W: document.documentElement.clientWidth, H: document.documentElement.clientHeight})`, &vp)
	if p.call(t, &info, "target", ref(t, r, `button "Far away"`)); !info.OK || info.Y <= 0 || info.Y >= vp.H || info.X <= 0 || info.X >= vp.W || info.Width == 0 {
		t.Errorf("target(far) = %+v, want a point in the %vx%v viewport", info, vp.W, vp.H)
	}
	var scrollY float64
	if p.pageEval(t, `scrollY`, &scrollY); scrollY < 1000 {
		t.Errorf("scrollY %v: the far button was not scrolled into view", scrollY)
	}

	// Typing is refused into sensitive fields and where nothing is editable.
	for key, want := range map[string][2]bool{
		`textbox "Email"`:     {false, true},
		`textbox "Password"`:  {true, true},
		`textbox "Read only"`: {false, false},
		`textbox "Editor"`:    {false, true},
		`button "Far away"`:   {false, false},
	} {
		p.call(t, &info, "target", ref(t, r, key))
		if info.Sensitive != want[0] || info.Editable != want[1] {
			t.Errorf("target(%s): sensitive %v editable %v, want %v %v", key, info.Sensitive, info.Editable, want[0], want[1])
		}
	}
}

func TestHitTest(t *testing.T) {
	p := open(t, "/actions.html")
	r := refs(t, p)
	covered := ref(t, r, `button "Covered"`)
	var info TargetInfo
	p.call(t, &info, "target", covered)
	var hit HitTest
	if p.call(t, &hit, "hitTest", covered, info.X, info.Y); hit.OK || hit.Covering != "div#overlay.modal-backdrop" {
		t.Errorf("hitTest(covered) = %+v, want covered by div#overlay.modal-backdrop", hit)
	}
	plain := ref(t, r, `button "Plain"`)
	p.call(t, &info, "target", plain)
	if p.call(t, &hit, "hitTest", plain, info.X, info.Y); !hit.OK {
		t.Errorf("hitTest(plain) = %+v", hit)
	}
	// A click on a label reaches its control.
	email := ref(t, r, `textbox "Email"`)
	var label struct{ X, Y float64 }
	p.pageEval(t, `(() => { const b = document.querySelector("label[for=email]").getBoundingClientRect(); return {X: b.x + b.width / 2, Y: b.y + b.height / 2}; })()`, &label)
	if p.call(t, &hit, "hitTest", email, label.X, label.Y); !hit.OK {
		t.Errorf("hitTest(input, on its label) = %+v", hit)
	}
}

func TestFields(t *testing.T) {
	p := open(t, "/actions.html")
	r := refs(t, p)
	type selected struct {
		OK       bool     `json:"ok"`
		Selected []string `json:"selected"`
		Error    string   `json:"error"`
	}
	var res selected
	one, many := ref(t, r, `combobox "One"`), ref(t, r, `listbox "Many"`)
	if p.call(t, &res, "select", one, []string{"Banana"}); !res.OK || strings.Join(res.Selected, ",") != "Banana" {
		t.Errorf("select(one, Banana) = %+v", res)
	}
	if p.call(t, &res, "select", many, []string{"a", " Cherry "}); !res.OK || strings.Join(res.Selected, ",") != "Apple,Cherry" {
		t.Errorf("select(many, a + Cherry) = %+v", res)
	}
	for _, bad := range [][]string{{"Cherry"}, {"Durian"}, {"Apple", "Banana"}} {
		if p.call(t, &res, "select", one, bad); res.OK || res.Error == "" {
			t.Errorf("select(one, %v) = %+v, want an error", bad, res)
		}
	}
	var events []string
	p.pageEval(t, `events`, &events)
	if got := strings.Join(events, " "); got != "one:input:b one:change many:input:a,c many:change" {
		t.Errorf("the page saw %q", got)
	}

	box := ref(t, r, `checkbox "Box"`)
	var checked bool
	if p.call(t, &checked, "checked", box); checked {
		t.Errorf("checked(box) = true before a click")
	}
	p.pageEval(t, `document.getElementById("box").click()`, nil)
	if p.call(t, &checked, "checked", box); !checked {
		t.Errorf("checked(box) = false after a click")
	}

	// A sensitive field's content is read as its length alone.
	var held map[string]any
	if p.call(t, &held, "keyValue", ref(t, r, `textbox "Password"`)); held["length"] != float64(len(canary)) || held["value"] != nil {
		t.Errorf("keyValue(password) = %v", held)
	}
	email := ref(t, r, `textbox "Email"`)
	var ok bool
	if p.call(t, &ok, "focus", email); !ok {
		t.Errorf("focus(email) = false")
	}
	// keyReady after a focus (the worker's click): focus is checked and the text selected for fill.
	var ready struct {
		Focused bool
		Held    struct{ Length int }
	}
	if p.call(t, &ready, "keyReady", email, "fill", false); !ready.Focused || ready.Held.Length != len("a@b.c") {
		t.Errorf("keyReady(email, fill) = %+v", ready)
	}
	var sel []int
	p.pageEval(t, `[document.activeElement.selectionStart, document.activeElement.selectionEnd]`, &sel)
	if len(sel) != 2 || sel[0] != 0 || sel[1] != len("a@b.c") {
		t.Errorf("selection after keyReady(fill) = %v", sel)
	}
	// An editable region focused by script (no pointer) and selected whole.
	editor := ref(t, r, `textbox "Editor"`)
	if p.call(t, &ready, "keyReady", editor, "fill", true); !ready.Focused {
		t.Errorf("keyReady(editor, fill, focus) = %+v", ready)
	}
	var selText string
	if p.pageEval(t, `getSelection().toString()`, &selText); selText != "Some text" {
		t.Errorf("selection in the editor = %q", selText)
	}
	if p.call(t, &ready, "keyReady", email, "press", false); ready.Focused {
		t.Errorf("keyReady(email) says focused after focusing the editor")
	}
}

func TestWaitsAndScroll(t *testing.T) {
	p := open(t, "/actions.html")
	r := refs(t, p)
	var found bool
	if p.call(t, &found, "hasText", "Far   away"); !found {
		t.Errorf("hasText(Far away) = false")
	}
	if p.call(t, &found, "hasText", "Nowhere to be seen"); found {
		t.Errorf("hasText(absent) = true")
	}
	if p.call(t, &found, "hasText", "Hidden"); found {
		t.Errorf("hasText sees visibility:hidden text")
	}
	var pos struct{ X, Y float64 }
	p.call(t, &pos, "scrollBy", nil, 0, 300)
	if pos.Y != 300 {
		t.Errorf("scrollBy(page) = %+v", pos)
	}
	p.call(t, &pos, "scrollBy", ref(t, r, `generic "List"`), 0, 20)
	if math.Abs(pos.Y-20) > 1 {
		t.Errorf("scrollBy(list) = %+v", pos)
	}
	if _, err := p.evalRaw(`__agenttab.scrollBy("e99999", 0, 10)`); err == nil {
		t.Errorf("scrollBy(unknown ref) did not throw")
	}
}

// TestStyledCheckboxes checks controls that pages hide to style their
// labels instead: the snapshot shows the control once, with the label's
// ref, and a real click at the target point toggles it.
func TestStyledCheckboxes(t *testing.T) {
	p := open(t, "/actions.html")
	s := p.snapshot(t, SnapshotRequest{NextID: 1})
	for _, name := range []string{"Styled box", "Gone box"} {
		if n := strings.Count(s.Text, `"`+name+`"`); n != 1 {
			t.Fatalf("%q appears %d times:\n%s", name, n, s.Text)
		}
		r := refs(t, p)
		box := ref(t, r, `checkbox "`+name+`"`)
		var info TargetInfo
		if p.call(t, &info, "target", box); !info.OK {
			t.Fatalf("target(%s) = %+v", name, info)
		}
		var hit HitTest
		if p.call(t, &hit, "hitTest", box, info.X, info.Y); !hit.OK {
			t.Errorf("hitTest(%s) = %+v", name, hit)
		}
		p.click(t, info.X, info.Y)
		var checked bool
		if p.call(t, &checked, "checked", box); !checked {
			t.Errorf("%s: not checked after a click on its target point", name)
		}
	}
}
