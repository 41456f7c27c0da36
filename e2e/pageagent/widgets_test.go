package pageagent

import (
	"testing"
	"time"
)

// widgetPages are the end-to-end corpus's pages (e2e/corpus/pages, built
// with jQuery UI, React, SortableJS and xterm.js from npm), each with the
// script that shows what the widget shows in response to input (an open
// suggestion list, date picker, select menu, submenu, dialog) and the
// condition that says it is shown. The page's own script runs both, as a
// person's input would make it.
var widgetPages = []struct {
	page, reveal, shown string
}{
	{"autocomplete.html", `$("#city").val("Par").autocomplete("search", "Par")`, `$(".ui-autocomplete:visible li").length === 3`},
	{"datepicker.html", `$("#depart").datepicker("show")`, `$("#ui-datepicker-div:visible td a").length > 27`},
	{"selectmenu.html", `$("#size").selectmenu("open")`, `$(".ui-selectmenu-menu.ui-selectmenu-open li").length === 4`},
	{"spinner.html", "", ""},
	{"slider.html", "", ""},
	{"menu.html", `$("#menu").menu("focus", null, $("#menu > li").first()).menu("expand")`, `$("#menu ul:visible").length > 0`},
	{"accordion.html", "", ""},
	{"dialog.html", `$(".delete").first().trigger("click")`, `$(".ui-dialog:visible").length === 1 && $(".ui-dialog").css("opacity") === "1"`},
	{"sortable.html", "", ""},
	{"dnd.html", "", ""},
	{"kanban.html", "", ""},
	{"inbox.html", `document.querySelector("#messages .row").click()`, `document.querySelectorAll(".tool").length === 3`},
	{"react-form.html", "", ""},
	{"terminal.html", "", ""},
	{"article.html", "", ""},
}

// TestWidgetRolesMatchChrome extends TestRolesAndNamesMatchChrome to pages
// built from real widget libraries (issue 11): every line with a ref, in
// both tree modes, before and after the widget shows its popup, has the
// role and name Chrome's own accessibility tree gives the element.
func TestWidgetRolesMatchChrome(t *testing.T) {
	for _, w := range widgetPages {
		t.Run(w.page, func(t *testing.T) {
			p := open(t, "/corpus/"+w.page)
			check := func(when string) {
				for _, mode := range []string{"interactive", "full"} {
					// As the debugger route does: the page's listeners first.
					p.reportListeners(t)
					s := p.snapshot(t, SnapshotRequest{Mode: mode, NextID: 1})
					ls := lines(t, s.Text)
					if len(ls) == 0 {
						t.Fatalf("%s, %s: no lines with refs:\n%s", when, mode, s.Text)
					}
					for _, l := range ls {
						checkChrome(t, p, l)
					}
				}
			}
			check("loaded")
			if w.reveal == "" {
				return
			}
			p.pageEval(t, w.reveal+"; 0", nil)
			p.waitPage(t, w.shown)
			check("revealed")
		})
	}
}

// waitPage polls cond in the page's world until it holds (5 s at most).
func (p *tab) waitPage(t testing.TB, cond string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var ok bool
		p.pageEval(t, "!!("+cond+")", &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never showed %s", cond)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
