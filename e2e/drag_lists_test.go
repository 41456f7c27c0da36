package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The sortable lists of issue 11 item 7, each built with the real library
// (or, for HTML5 drag and drop, the browser's own API with the handlers a
// tutorial writes). Each page shows the order its own code read when the
// library reported the change: jQuery UI's update, SortableJS's onUpdate,
// the drop handler.
const (
	listItems = `<li>Item 1</li><li>Item 2</li><li>Item 3</li><li>Item 4</li>`
	// listShow writes the order of #list's items into #order.
	listShow = `<p id="order">order: 1,2,3,4</p>
<script>function show() { document.getElementById('order').textContent = 'order: ' +
  Array.from(document.querySelectorAll('#list li'), (li) => li.textContent.replace('Item ', '')).join(','); }</script>`
	verticalList = `<style>body{font:16px sans-serif} #list{list-style:none;padding:0;margin:20px;width:260px}
#list li{height:34px;line-height:34px;margin:0 0 6px;padding:0 8px;border:1px solid #888;background:#eee;cursor:move}</style>`
	rowList = `<style>body{font:16px sans-serif} #list{list-style:none;padding:0;margin:20px;display:flex;gap:8px}
#list li{width:90px;height:60px;line-height:60px;text-align:center;border:1px solid #888;background:#eee;cursor:move}</style>`
)

var jqueryUISortablePage = `<!doctype html><title>jQuery UI sortable</title>
<link rel="stylesheet" href="/vendor/jquery-ui/dist/themes/base/jquery-ui.min.css">` + verticalList + `
<ul id="list">` + listItems + `</ul>` + listShow + `
<script src="/vendor/jquery/dist/jquery.min.js"></script>
<script src="/vendor/jquery-ui/dist/jquery-ui.min.js"></script>
<script>$('#list').sortable({update: show});</script>`

// html5ListPage is the list a tutorial on HTML5 drag and drop builds:
// draggable items, dragover allowing the drop, and a drop handler that
// puts the dragged item before or after the one it is dropped on by which
// half of it the pointer is in (along the list's axis; in a right-to-left
// row the item before is on the right).
func html5ListPage(layout string, horizontal bool) string {
	return `<!doctype html><title>HTML5 list</title>` + layout + `
<ul id="list">` + strings.ReplaceAll(listItems, "<li>", `<li draggable="true">`) + `</ul>` + listShow + `
<script>
const horizontal = ` + fmt.Sprint(horizontal) + `;
const rtl = getComputedStyle(document.getElementById('list')).direction === 'rtl';
const list = document.getElementById('list');
let dragged = null;
list.addEventListener('dragstart', (e) => { dragged = e.target.closest('li');
  e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', dragged.textContent); });
list.addEventListener('dragover', (e) => { if (dragged) { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; } });
list.addEventListener('drop', (e) => {
  e.preventDefault();
  const target = e.target.closest('li');
  if (!dragged || !target || target === dragged) return;
  const r = target.getBoundingClientRect();
  const after = horizontal ? (e.clientX > r.left + r.width / 2) !== rtl : e.clientY > r.top + r.height / 2;
  list.insertBefore(dragged, after ? target.nextSibling : target);
  show();
});
list.addEventListener('dragend', () => { dragged = null; });
</script>`
}

func sortableJSPage(layout, options string) string {
	return `<!doctype html><title>SortableJS</title>` + layout + `
<ul id="list">` + listItems + `</ul>` + listShow + `
<script src="/vendor/sortablejs/Sortable.min.js"></script>
<script>Sortable.create(document.getElementById('list'), {` + options + `onUpdate: show});</script>`
}

// A drag onto a list item, released in the item's edge before or after it
// along the list's axis, reorders real sortable lists: jQuery UI sortable
// (mouse events; it rearranges by the direction of motion and which half
// of an item the pointer is over), HTML5 drag and drop (Chrome's
// intercepted drag, with dragover along the way and the drop where
// asked; in a row, and a right-to-left row, where before is on the
// right), SortableJS with forceFallback (pointer events; it finds the
// item under the pointer on a 50 ms interval) and in its default HTML5
// mode, in a row. Before, no library moved an item: the drag went out as
// a press, five moves without pause and a release at the target's centre.
func TestDragReordersSortableLists(t *testing.T) {
	pages := map[string]string{
		"/jquery-ui":         jqueryUISortablePage,
		"/html5":             html5ListPage(verticalList, false),
		"/html5-row":         html5ListPage(rowList, true),
		"/html5-rtl-row":     html5ListPage(rowList+`<style>#list{direction:rtl}</style>`, true),
		"/sortable-fallback": sortableJSPage(verticalList, "forceFallback: true, animation: 150, "),
		"/sortable-html5":    sortableJSPage(rowList, "animation: 150, "),
	}
	e := harness.Start(t)
	base := e.ServeCorpus(pages)
	s := e.MCP(t)
	for _, path := range []string{"/jquery-ui", "/html5", "/html5-row", "/html5-rtl-row", "/sortable-fallback", "/sortable-html5"} {
		t.Run(strings.TrimPrefix(path, "/"), func(t *testing.T) {
			tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + path}))
			text, rev, _ := snap(t, s, tab, nil)
			start := time.Now()
			res := act(t, s, tab, rev, step("drag", "ref", itemRef(t, text, "Item 1"), "to_ref", itemRef(t, text, "Item 3"), "position", "after"))
			t.Logf("%s: drag took %v: %v", path, time.Since(start).Round(time.Millisecond), stepsOf(res)[0]["note"])
			wantOrder(t, s, tab, "2,3,1,4")
			text, rev, _ = snap(t, s, tab, nil)
			act(t, s, tab, rev, step("drag", "ref", itemRef(t, text, "Item 4"), "to_ref", itemRef(t, text, "Item 1"), "position", "before"))
			wantOrder(t, s, tab, "2,3,4,1")
		})
	}
}

// itemRef finds the ref of the snapshot line whose text is name.
func itemRef(t testing.TB, text, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*- [^\n]*\[ref=(e\d+)\][^\n]*: ` + regexp.QuoteMeta(name) + `$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no line %q with a ref in the snapshot:\n%s", name, text)
	}
	return m[1]
}

// wantOrder checks the order the page reports, and that the snapshot
// lists the items in it too.
func wantOrder(t testing.TB, s *mcp.ClientSession, tab, order string) {
	t.Helper()
	text, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if !strings.Contains(text, "order: "+order) {
		t.Fatalf("the page does not report order %s:\n%s", order, text)
	}
	var seen []string
	for _, m := range regexp.MustCompile(`(?m): Item (\d)$`).FindAllStringSubmatch(text, -1) {
		seen = append(seen, m[1])
	}
	if got := strings.Join(seen, ","); got != order {
		t.Fatalf("the snapshot lists the items as %s, want %s:\n%s", got, order, text)
	}
}
