package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// A drag's position moves its release point off the target's centre, and
// the drop guard checks the point the release really goes to (issue 9,
// issue 11 item 7): a link dragged before a box whose upper part is a
// password field is refused sensitive_field, not_started, with nothing
// sent to the page (its counters stay at zero), though the box's centre
// is plain text; dragged after it, the link's URL lands in the box's
// lower part, a plain textarea.
func TestDragPositionKeepsTheDropGuard(t *testing.T) {
	e := harness.Start(t)
	base := e.ServeCorpus(map[string]string{"/": `<!doctype html><title>Drop box</title>
<style>body{font:16px sans-serif} #box{width:300px} #box > *{display:block;box-sizing:border-box;width:300px;height:60px;margin:0}</style>
<p><a href="/next">Next page</a></p>
<div id="box" role="region" aria-label="Box">
<input id="pw" type="password" aria-label="Password">
<span>Drop the link below</span>
<textarea id="notes" aria-label="Notes"></textarea>
</div>
<p id="seen">presses 0, password inputs 0</p>
<script>
let presses = 0, inputs = 0;
const seen = () => document.getElementById('seen').textContent = 'presses ' + presses + ', password inputs ' + inputs;
document.addEventListener('mousedown', () => { presses++; seen(); }, true);
document.getElementById('pw').addEventListener('input', () => { inputs++; seen(); });
</script>`})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	link, box := refOf(t, text, "link", "Next page"), refOf(t, text, "region", "Box")

	res := actRefused(t, s, tab, rev, protocol.CodeSensitiveField, 0, step("drag", "ref", link, "to_ref", box, "position", "before"))
	if msg, _ := stepsOf(res)[0]["error"].(map[string]any)["message"].(string); !strings.Contains(msg, `textbox "Password"`) {
		t.Errorf("the refusal says %q, want it to name the password field", msg)
	}
	if after, _, _ := snap(t, s, tab, nil); !strings.Contains(after, "presses 0, password inputs 0") {
		t.Fatalf("the refused drag reached the page:\n%s", after)
	}

	act(t, s, tab, rev, step("drag", "ref", link, "to_ref", box, "position", "after"))
	after, _, _ := snap(t, s, tab, nil)
	if !regexp.MustCompile(`textbox "Notes"[^\n]*: `+regexp.QuoteMeta(base+"/next")).MatchString(after) || !strings.Contains(after, "presses 1, password inputs 0") {
		t.Fatalf("the link's URL did not land in Notes alone:\n%s", after)
	}
}
