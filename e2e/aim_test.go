package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// shiftingPage moves its target by script, not by an animation the page
// agent can ask for (page/motion.ts), once "Shift" is clicked: every task
// turn for 3 s, through a message channel, which a background tab does not
// throttle. Only the two looks of a click (act/pointer.ts aim) can see it.
const shiftingPage = `<!doctype html><title>Shifting</title>
<button id="shift">Shift</button>
<div style="margin-top:40px"><button id="target" onclick="clicked()">Target</button></div>
<p id="clicks">clicks: 0, while moving: 0</p>
<script>
window.clicks = 0; window.movingClicks = 0; window.moving = false;
function clicked() {
  window.clicks++;
  if (window.moving) window.movingClicks++;
  document.getElementById('clicks').textContent = 'clicks: ' + window.clicks + ', while moving: ' + window.movingClicks;
}
document.getElementById("shift").onclick = () => {
  const target = document.getElementById("target"), start = performance.now(), ch = new MessageChannel();
  window.moving = true;
  // 0.2 px a millisecond, by the clock (not by the task: any two looks
  // 10 ms apart see it 2 px apart).
  ch.port1.onmessage = () => {
    const t = Math.min(performance.now() - start, 3000);
    target.style.marginLeft = t / 5 + "px";
    if (t < 3000) ch.port2.postMessage(0);
    else window.moving = false;
  };
  ch.port2.postMessage(0);
};
</script>`

// TestClickRefusesATargetTheScriptShifts: in a background tab (a task's
// usual case) the second look comes after 10 ms of the page's tasks
// instead of 20 ms (issue 10); a target the page's script keeps moving is
// still seen moving, looked at again until actionable_timeout_ms is spent
// (issue 11), refused target_moving before anything is dispatched, and its
// click handler never runs. With the default timeout, the click goes out
// once the script stops moving it (3 s after "Shift").
func TestClickRefusesATargetTheScriptShifts(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": shiftingPage})
	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	target := refOf(t, text, "button", "Target")
	// The script moves the target for 3 s after Shift. On a loaded machine
	// the refused click can come after that; the page counts clicks that
	// landed while it moved, so a click that went out because the target
	// stood still again is told from one the product let through, and
	// only the first fails the test (the scene is played again).
	for attempt := 1; ; attempt++ {
		ok(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", refOf(t, text, "button", "Shift"))}})
		res, isErr := harness.CallTool(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actionable_timeout_ms": 500, "actions": []any{step("click", "ref", target)}})
		if !isErr {
			if after, _, _ := snap(t, s, tab, nil); !strings.Contains(after, "while moving: 0") || attempt == 3 {
				t.Fatalf("a click went out while the script moved its target (attempt %d): %v\n%s", attempt, res, after)
			}
			t.Logf("attempt %d: the target had stopped before the click (a slow machine); again", attempt)
			continue
		}
		st := append(stepsOf(res), map[string]any{})[0]
		errObj, _ := st["error"].(map[string]any)
		if waited, _ := st["waited_ms"].(float64); st["outcome"] != string(protocol.OutcomeNotStarted) || errObj["code"] != string(protocol.CodeTargetMoving) || waited < 500 {
			t.Fatalf("the refused click: %v, want target_moving, not_started, after waiting 500 ms", res)
		}
		break
	}
	before, _, _ := snap(t, s, tab, nil)
	if !strings.Contains(before, "while moving: 0") {
		t.Fatalf("the shifting target's handler ran while it moved:\n%s", before)
	}
	res := act(t, s, tab, rev, step("click", "ref", target))
	t.Logf("the click waited %v ms", stepsOf(res)[0]["waited_ms"])
	if after, _, _ := snap(t, s, tab, nil); shiftClicks(t, after) != shiftClicks(t, before)+1 {
		t.Fatalf("the target, once still, was not clicked once:\n%s", after)
	}
}

// shiftClicks reads the page's count of the target's clicks.
func shiftClicks(t *testing.T, text string) int {
	t.Helper()
	m := regexp.MustCompile(`clicks: (\d+),`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no click count in:\n%s", text)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
