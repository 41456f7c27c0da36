package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// resultsPage is a booking page's results: a scrollable list of 50 hotels,
// each with its own button, inside a scrollable side panel, and a plain
// list of 50 rooms the page itself does not scroll. The status line says
// what was chosen.
func resultsPage() string {
	var hotels, rooms strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&hotels, `<div class="row">Hotel %d <button onclick="pick('Hotel %d')">Select hotel %d</button></div>`, i, i, i)
		fmt.Fprintf(&rooms, `<div class="row">Room %d <button onclick="pick('Room %d')">Select room %d</button></div>`, i, i, i)
	}
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Results</title>
<style>body{margin:8px} .row{height:30px} #rooms{height:150px;overflow:auto;border:1px solid} #side{height:300px;overflow:auto;border:1px solid;margin-top:20px} #hotels{height:120px;overflow-y:scroll}</style></head><body>
<p id="status">picked: none</p>
<div id="rooms">` + rooms.String() + `</div>
<div id="side"><p style="height:250px">Filters and a map.</p><div id="hotels">` + hotels.String() + `</div></div>
<script>function pick(what) { document.getElementById("status").textContent = "picked: " + what; }</script></body></html>`
}

// TestClickScrollsTargetsIntoViewWithinScrolledLists (issue 11): a button
// inside a scrollable list, lying in the viewport but below the list's
// visible part, is scrolled into view within the list and clicked (before:
// target_covered "by html"); one near the end of a list nested in a
// scrolled panel is scrolled into view in both, then one back at the
// start.
func TestClickScrollsTargetsIntoViewWithinScrolledLists(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": resultsPage()})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, map[string]any{"max_chars": 100000})
	for _, name := range []string{"Select room 9", "Select room 48", "Select hotel 47", "Select hotel 2"} {
		act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", name)))
		want := "picked: " + strings.TrimPrefix(strings.Replace(name, "Select h", "H", 1), "Select ")
		want = strings.Replace(want, "picked: room", "picked: Room", 1)
		if now, _, _ := snap(t, s, tab, nil); !strings.Contains(now, want) {
			t.Fatalf("clicked %q: the page does not say %q:\n%.300s", name, want, now)
		}
	}
}

// selectmenuPage is a jQuery UI selectmenu of 40 cities whose open list
// scrolls (the theme's overflow auto, 160 px high).
const selectmenuPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Destination</title>
<link rel="stylesheet" href="/vendor/jquery-ui/dist/themes/base/jquery-ui.min.css">
<script src="/vendor/jquery/dist/jquery.min.js"></script>
<script src="/vendor/jquery-ui/dist/jquery-ui.min.js"></script>
<style>.ui-selectmenu-menu .ui-menu { max-height: 160px; }</style></head><body>
<label for="city">Destination</label> <select id="city"></select>
<p id="status">city: none</p>
<script>
for (let i = 1; i <= 40; i++) $("#city").append($("<option>").text("City " + i));
$("#city").selectmenu({ change: (e, ui) => $("#status").text("city: " + ui.item.label) });
</script></body></html>`

// TestClickChoosesFromAScrolledSelectmenu: an option below the open
// list's visible part is scrolled into view in the list and chosen.
func TestClickChoosesFromAScrolledSelectmenu(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": selectmenuPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	// The selectmenu's button (the snapshot names it by its value).
	combobox := regexp.MustCompile(`- combobox[^\n]*\[ref=(e\d+)\]`).FindStringSubmatch(text)
	if combobox == nil {
		t.Fatalf("no combobox in the snapshot:\n%s", text)
	}
	res := ok(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "snapshot_after": true, "actions": []any{step("click", "ref", combobox[1])}})
	after, _ := res["snapshot"].(map[string]any)["text"].(string)
	act(t, s, tab, revisionOf(res), step("click", "ref", refOf(t, after, "option", "City 12")))
	if now, _, _ := snap(t, s, tab, nil); !strings.Contains(now, "city: City 12") {
		t.Fatalf("the page did not take City 12:\n%s", now)
	}
}
