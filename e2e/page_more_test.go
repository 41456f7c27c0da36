package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

const dragPage = `<!doctype html><title>Drag</title>
<style>.zone{width:160px;height:80px;border:2px dashed #888;margin:10px;display:inline-block}
#knob{position:absolute;left:20px;top:200px;width:40px;height:40px;background:#48c;border-radius:20px}</style>
<div draggable="true" id="card" role="button" aria-label="Card" style="width:80px;height:40px;background:#fc6">Card</div>
<div class="zone" id="html5" role="region" aria-label="HTML5 target">drop here</div>
<div id="knob" role="slider" aria-label="Knob" aria-valuenow="0" tabindex="0"></div>
<div class="zone" id="pointer" role="region" aria-label="Pointer target" style="position:absolute;left:300px;top:180px">and here</div>
<p id="log">nothing dropped</p>
<script>
const log = document.getElementById('log');
document.getElementById('card').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', 'card'));
const z = document.getElementById('html5');
z.addEventListener('dragover', e => e.preventDefault());
z.addEventListener('drop', e => { e.preventDefault(); log.textContent = 'html5 drop of ' + e.dataTransfer.getData('text/plain'); });
const knob = document.getElementById('knob');
let dragging = false;
knob.addEventListener('pointerdown', e => { dragging = true; knob.setPointerCapture(e.pointerId); });
knob.addEventListener('pointermove', e => { if (dragging) { knob.style.left = (e.clientX - 20) + 'px'; knob.style.top = (e.clientY - 20) + 'px'; } });
knob.addEventListener('pointerup', e => { dragging = false;
  const r = document.getElementById('pointer').getBoundingClientRect();
  if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) log.textContent += '; pointer drop'; });
</script>`

// HTML5 drag-and-drop and a pointer drag land where asked.
func TestDragAndDrop(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": dragPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	act(t, s, tab, rev,
		step("drag", "ref", refOf(t, text, "button", "Card"), "to_ref", refOf(t, text, "region", "HTML5 target")),
		step("drag", "ref", refOf(t, text, "slider", "Knob"), "to_ref", refOf(t, text, "region", "Pointer target")),
	)
	after, _, _ := snap(t, s, tab, map[string]any{"mode": "full"})
	if !strings.Contains(after, "html5 drop of card; pointer drop") {
		t.Fatalf("the drops did not land:\n%s", after)
	}
}

// alert and confirm are reported and answered; a same-document link
// advances the revision without staling refs; a canary password never
// reaches audit or the host log.
func TestDialogsSameDocumentAndNoSecretsInLogs(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Dialogs</title>
<button onclick="alert('Heads up')">Alert</button>
<button onclick="document.getElementById('out').textContent = confirm('Sure?') ? 'confirmed' : 'declined'">Confirm</button>
<a href="#later">Jump</a>
<label>Secret <input type="password" value="` + canaryPassword + `"></label>
<p id="out">-</p><h2 id="later" style="margin-top:2000px">Later</h2>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)

	res := act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Alert")))
	if d, _ := res["dialog"].(map[string]any); d == nil || d["type"] != "alert" || d["message"] != "Heads up" {
		t.Fatalf("alert not reported: %v", res)
	}
	rev = revisionOf(res)
	act(t, s, tab, rev, step("dialog", "accept", true))
	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "button", "Confirm")))
	if d, _ := res["dialog"].(map[string]any); d == nil || d["type"] != "confirm" {
		t.Fatalf("confirm not reported: %v", res)
	}
	act(t, s, tab, revisionOf(res), step("dialog", "accept", false))

	res = act(t, s, tab, rev, step("click", "ref", refOf(t, text, "link", "Jump")))
	st := stepsOf(res)
	if st[0]["navigation"] != string(protocol.NavigationSameDocument) || revisionOf(res) <= rev {
		t.Fatalf("same-document link: %v", res)
	}
	// Refs survive a same-document change (DESIGN.md "Page revision and refs").
	act(t, s, tab, revisionOf(res), step("click", "ref", refOf(t, text, "button", "Confirm")))
	act(t, s, tab, revisionOf(res), step("dialog", "accept", true))
	after, _, _ := snap(t, s, tab, nil)
	if !strings.Contains(after, "confirmed") {
		t.Fatalf("the confirm answer did not reach the page:\n%s", after)
	}
	for _, f := range []string{"audit.jsonl", "host.log"} {
		data, err := os.ReadFile(filepath.Join(e.StateDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), canaryPassword) {
			t.Errorf("%s contains the password canary", f)
		}
	}
	if strings.Contains(after+text, canaryPassword) {
		t.Error("a snapshot contains the password canary")
	}
}

// A page that asks before it is left (beforeunload, after the user typed
// into it) stops a navigation with a dialog, which is reported and
// answered like any other; accepting it lets the navigation go on.
func TestBeforeUnloadDialog(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": `<!doctype html><title>Draft</title>
<label>Draft <input></label>
<script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = ''; });</script>`, "/next": page("Next")})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	rev = revisionOf(act(t, s, tab, rev, step("type", "ref", refOf(t, text, "textbox", "Draft"), "text", "unsaved words")))

	res := act(t, s, tab, rev, step("navigate", "url", base+"/next"))
	if d, _ := res["dialog"].(map[string]any); d == nil || d["type"] != "beforeunload" {
		t.Fatalf("beforeunload not reported: %v", res)
	}
	if st := stepsOf(res)[0]; st["navigation"] != string(protocol.NavigationUnknown) || !strings.Contains(fmt.Sprint(st["note"]), "waits for a dialog step") {
		t.Errorf("the navigate step behind the dialog: %v", st)
	}
	// The open dialog blocks the page: a snapshot is refused, not_started.
	if r := refused(t, s, protocol.MethodSnapshot, map[string]any{"tab": tab}, protocol.CodeDialogOpen); r["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("a snapshot behind the dialog: %v", r)
	}
	res = act(t, s, tab, revisionOf(res), step("dialog", "accept", true), step("wait", "wait", map[string]any{"until": "url", "url": base + "/next"}))
	if res["url"] != base+"/next" {
		t.Fatalf("the navigation did not go on after the dialog was accepted: %v", res)
	}
}
