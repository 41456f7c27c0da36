package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Issue 11, items 1-3: what a person can click gets a ref in the default
// snapshot, with the evidence that it is clickable; long text is clipped
// with a marker instead of dropped, and the status says so; what a widget
// shows in response to input is in the default snapshot. The pages are
// built with the real libraries (e2e/corpus, served under /vendor/).

const jqueryUI = `<link rel="stylesheet" href="/vendor/jquery-ui/dist/themes/base/jquery-ui.min.css">
<script src="/vendor/jquery/dist/jquery.min.js"></script>
<script src="/vendor/jquery-ui/dist/jquery-ui.min.js"></script>`

// lineOf returns the first line of text that matches re, or fails.
func lineOf(t testing.TB, text, re string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^.*` + re + `.*$`).FindString(text)
	if m == "" {
		t.Fatalf("no line matches %s in the snapshot:\n%s", re, text)
	}
	return m
}

// refIn is the ref of a snapshot line.
func refIn(t testing.TB, line string) string {
	t.Helper()
	m := regexp.MustCompile(`\[ref=(e\d+)\]`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the line has no ref: %s", line)
	}
	return m[1]
}

func waitText(t testing.TB, s *mcp.ClientSession, tab, text string) {
	t.Helper()
	res := ok(t, s, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": text, "timeout_ms": 10000})
	if res["satisfied"] != true {
		t.Fatalf("the page never showed %q: %v", text, res)
	}
}

// TestSnapshotSuggestionsHaveRefs: after typing into a jQuery UI
// autocomplete, its suggestion list is in the next default snapshot, each
// suggestion with a ref and [cursor=pointer] (jQuery UI's menu items), and
// clicking one fills the input (the page's select handler runs).
func TestSnapshotSuggestionsHaveRefs(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trip</title>` + jqueryUI + `</head><body>
<h1>Find a city</h1>
<label for="city">City</label> <input id="city">
<p id="chosen">Nothing chosen</p>
<script>
$("#city").autocomplete({
  source: ["Amsterdam", "Ankara", "Antwerp", "Athens", "Berlin", "Lisbon", "Madrid", "Paris"],
  select: (event, ui) => $("#chosen").text("Chosen: " + ui.item.value),
});
</script></body></html>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	act(t, s, tab, rev, step("type", "ref", refOf(t, text, "textbox", "City"), "text", "An"))
	waitText(t, s, tab, "Antwerp")
	text, rev, _ = snap(t, s, tab, nil)
	line := lineOf(t, text, `Antwerp`)
	if !strings.Contains(line, "- listitem [cursor=pointer] [ref=") {
		t.Fatalf("the suggestion's line = %q, want a listitem with [cursor=pointer] and a ref:\n%s", line, text)
	}
	for _, other := range []string{"Ankara"} {
		if !regexp.MustCompile(`\[ref=e\d+\]: ` + other).MatchString(text) {
			t.Errorf("suggestion %s has no line with a ref:\n%s", other, text)
		}
	}
	act(t, s, tab, rev, step("click", "ref", refIn(t, line)))
	text, _, _ = snap(t, s, tab, nil)
	if !strings.Contains(text, `textbox "City"`) || !strings.Contains(lineOf(t, text, `textbox "City"`), ": Antwerp") || !strings.Contains(text, "Chosen: Antwerp") {
		t.Fatalf("after the click the page shows:\n%s\nwant the field holding Antwerp and the page's select handler run", text)
	}
}

// TestSnapshotInboxRowsWithListeners: rows made of divs whose only sign of
// being clickable is a listener added with addEventListener get refs and
// [clickable] (the debugger route asks Chrome for the listeners), a div
// styled with a pointer cursor gets [cursor=pointer], and clicking a row
// by its ref opens the message.
func TestSnapshotInboxRowsWithListeners(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inbox</title>
<style>.row { display: flex; gap: 12px; padding: 6px } .compose { cursor: pointer; border: 1px solid #999; width: 6em }</style></head><body>
<h1>Inbox</h1>
<div class="compose">Compose</div>
<div id="rows"></div>
<div id="pane">No message open</div>
<script>
const messages = [["Dana Scully", "Lunch on Friday?", "Mar 4"], ["Billing Team", "Invoice 4471 is overdue", "Mar 3"], ["Newsletter", "Spring offers", "Mar 1"]];
for (const [from, subject, date] of messages) {
  const row = document.createElement("div");
  row.className = "row";
  for (const text of [from, subject, date]) {
    const span = document.createElement("span");
    span.textContent = text;
    row.append(span);
  }
  row.addEventListener("click", () => { document.getElementById("pane").textContent = "Opened: " + subject; });
  document.getElementById("rows").append(row);
}
</script></body></html>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, res := snap(t, s, tab, nil)
	if res["status"] != string(protocol.SnapshotComplete) {
		t.Errorf("status %v, want complete (nothing was clipped):\n%s", res["status"], text)
	}
	if line := lineOf(t, text, `Compose`); !strings.Contains(line, "- generic [cursor=pointer] [ref=") {
		t.Errorf("the styled div's line = %q, want [cursor=pointer] and a ref", line)
	}
	row := lineOf(t, text, `Invoice 4471 is overdue`)
	if !strings.Contains(row, "- generic [clickable] [ref=") || !strings.Contains(row, "Billing Team Invoice 4471 is overdue Mar 3") {
		t.Fatalf("the row's line = %q, want one line with [clickable], a ref and the row's text:\n%s", row, text)
	}
	act(t, s, tab, rev, step("click", "ref", refIn(t, row)))
	if text, _, _ = snap(t, s, tab, nil); !strings.Contains(text, "Opened: Invoice 4471 is overdue") {
		t.Fatalf("clicking the row did not open the message:\n%s", text)
	}
}

// TestSnapshotLongTextClippedNotDropped: a long article with a question at
// the end of its last paragraph. The default snapshot keeps every
// paragraph, clipped with a marker of how much was left out; its status is
// "clipped", not "complete", and says how to read the rest; mode "full"
// with find brings the question.
func TestSnapshotLongTextClippedNotDropped(t *testing.T) {
	e := harness.Start(t)
	filler := strings.Repeat("The harbour authority kept careful records of every crossing, every toll and every repair. ", 5)
	question := "Question: in which year did the Kestrel Bridge open to traffic?"
	base := e.ServeCorpus(map[string]string{"/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article</title></head><body>
<article><h1>The Kestrel Bridge</h1>
<p>` + filler + `</p>
<p>` + filler + `The bridge opened to traffic in 1887, after eleven years of work.</p>
<p>` + filler + question + `</p>
</article>
<label>Answer <input name="answer"></label>
</body></html>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, _, res := snap(t, s, tab, nil)
	marked := regexp.MustCompile(`(?m)^\s*- paragraph \[ref=e\d+\]: The harbour authority kept careful records of every [^…\n]*… \(\+\d+ chars\)$`)
	if n := len(marked.FindAllString(text, -1)); n != 3 {
		t.Errorf("%d paragraphs clipped with a marker, want 3:\n%s", n, text)
	}
	reason, _ := res["truncated_reason"].(string)
	clipped, _ := res["clipped"].(map[string]any)
	if res["status"] != string(protocol.SnapshotClipped) || !strings.Contains(reason, `mode "full"`) || clipped["texts"] != float64(3) {
		t.Fatalf("status %v (%q), clipped %v; want clipped, the way to read it whole, and 3 texts", res["status"], reason, clipped)
	}
	if strings.Contains(text, question) {
		t.Fatalf("the default snapshot shows the whole last paragraph:\n%s", text)
	}
	full, _, res := snap(t, s, tab, map[string]any{"mode": "full", "find": "Question:"})
	if res["found"] != true || !strings.Contains(full, question) || res["status"] != string(protocol.SnapshotComplete) {
		t.Fatalf("mode full with find: found %v, status %v:\n%s", res["found"], res["status"], full)
	}
}

// TestSnapshotWidgetTargets: a jQuery UI date picker's Prev/Next anchors
// (no href, a jQuery click handler) are links with refs, as in Chrome's
// tree, and clicking Next shows the next month; the items of a jQuery UI
// sortable list (no role, no handler of their own) are list items with
// refs.
func TestSnapshotWidgetTargets(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widgets</title>` + jqueryUI + `</head><body>
<h1>Plan</h1>
<div id="calendar"></div>
<ul id="tasks"><li>Pay rent</li><li>Buy milk</li><li>Call plumber</li></ul>
<script>
$("#calendar").datepicker({ defaultDate: new Date(2026, 4, 12) });
$("#tasks").sortable();
</script></body></html>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	for _, item := range []string{"Pay rent", "Buy milk", "Call plumber"} {
		if !strings.Contains(text, "- listitem [ref=") || !regexp.MustCompile(`- listitem \[ref=e\d+\]: `+item).MatchString(text) {
			t.Errorf("sortable item %q has no list item line with a ref:\n%s", item, text)
		}
	}
	// The title is "May&nbsp;2026".
	month := func(m string) *regexp.Regexp { return regexp.MustCompile(m + `[\s\x{a0}]+2026`) }
	if !month("May").MatchString(text) {
		t.Fatalf("the date picker shows no month:\n%s", text)
	}
	act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Next")))
	if text, _, _ = snap(t, s, tab, nil); !month("June").MatchString(text) || !strings.Contains(text, `link "Prev" [ref=`) {
		t.Fatalf("after Next the date picker shows:\n%s", text)
	}
}
