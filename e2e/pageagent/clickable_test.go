package pageagent

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestClickableEvidence: issue 11's rules for what a person can click and
// for text (page/clickable.ts, page/walker.ts): every text run is a line
// with its block's ref; an element with evidence of a click (a pointer
// cursor of its own, an inline handler, a listener the debugger route
// reports, draggable, an anchor) gets a line and a marker; a wrapper whose
// evidence is its control's goes; a long run is clipped with a marker and
// counted; a field that failed validation says the browser's message.
func TestClickableEvidence(t *testing.T) {
	p := open(t, "/clickable.html")
	p.reportListeners(t)
	s := p.snapshot(t, SnapshotRequest{NextID: 1})
	want := strings.Join([]string{
		`- heading "Things to click" [level=1] [ref=e1]`,
		`- generic [cursor=pointer] [ref=e2]: Submit`,      // a styled div
		`- generic [cursor=pointer] [ref=e3]: Outer inner`, // an inherited pointer is not marked again
		`- generic [clickable] [ref=e4]: Inline handler`,   // onclick
		`- listitem [draggable] [ref=e5]: Drag me`,         // HTML5 drag and drop
		`- generic [ref=e6]: Bare anchor`,                  // an anchor without href: generic, as in Chrome
		`- link "Listened anchor" [ref=e7]`,                // with a click listener: a link, as in Chrome
		`- generic [ref=e8]: Alice Meeting moved Mar 4`,    // a flex row of spans: one line, its items apart
		`- button "Wrapped button" [ref=e9]`,               // the pointer was the button's wrapper's
		`- listitem [ref=e10]: Wrapped item`,               // the line is the list item's, not its div's
		`- menu [ref=e11]:`,
		`  - menuitem "Menu entry" [ref=e12]`, // an li in a menu is no list item (Chrome 156)
		`- textbox "Required" [required] [ref=e13]`,
		`- button "Go" [ref=e14]`,
		`- paragraph [ref=e15]: Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor… (+153 chars)`,
		`- paragraph [ref=e16]: Medium text that is longer than forty characters but still short enough to keep whole.`,
	}, "\n")
	if s.Text != want {
		t.Errorf("interactive snapshot =\n%s\nwant\n%s", s.Text, want)
	}
	if s.Clipped == nil || s.Clipped.Texts != 1 || s.Clipped.Chars != 153 {
		t.Errorf("clipped = %+v, want 1 text, 153 characters", s.Clipped)
	}
	if full := p.snapshot(t, SnapshotRequest{Mode: "full", NextID: 1}); full.Clipped != nil || !strings.Contains(full.Text, "laboris nisi ut aliquip ex ea commodo consequat.") {
		t.Errorf("full clips (%+v) or lacks the whole paragraph:\n%s", full.Clipped, full.Text)
	}
	// The browser's validation bubble is outside the DOM: the field's line says it.
	p.pageEval(t, `document.getElementById("f").requestSubmit(); 0`, nil)
	if s := p.snapshot(t, SnapshotRequest{NextID: 1}); !strings.Contains(s.Text, `- textbox "Required" [required] [invalid="Please fill out this field."] [ref=e13]`) {
		t.Errorf("after a blocked submit the field's line lacks its validation message:\n%s", s.Text)
	}
	// The report stands for later snapshots of the document until a scan
	// replaces it (the worker scans again once the document changed).
	if s := p.snapshot(t, SnapshotRequest{NextID: 1}); !strings.Contains(s.Text, `- link "Listened anchor" [ref=e7]`) {
		t.Errorf("a later snapshot lost the report:\n%s", s.Text)
	}
	// A world without the debugger route's report (the scripting route's)
	// marks no listener: the anchor is generic.
	if _, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "delete globalThis.__agenttabListened", ContextID: p.world}); err != nil {
		t.Fatal(err)
	}
	if s := p.snapshot(t, SnapshotRequest{NextID: 1}); !strings.Contains(s.Text, `- generic [ref=e7]: Listened anchor`) {
		t.Errorf("a snapshot without a report still marks the anchor:\n%s", s.Text)
	}
}
