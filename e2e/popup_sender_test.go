package e2e

import (
	"fmt"
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// The worker answers the popup's messages from the popup page only
// (background/popup/status.ts fromPopup). A content script in a driven
// page's isolated world, where the scripting route's page agent runs, can
// call chrome.runtime.sendMessage too: its YOLO switch and status request
// go unanswered and change nothing.
func TestPopupMessagesFromAPageAreIgnored(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Driven")})
	s := e.MCP(t)
	setYolo(t, e, false)
	setAutomation(t, e, true)
	ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"})
	tab := chromeTabByURL(t, e, base+"/")

	// The messages are shared/status.ts's YOLO_SWITCH and STATUS_REQUEST.
	// Observed in Chromium 156: a message the listener leaves unanswered
	// (it returns false) resolves to undefined, not a rejection.
	for _, message := range []string{`{type: "agenttab.yolo", on: true}`, `{type: "agenttab.status"}`} {
		var got string
		e.Eval(t, fmt.Sprintf(`chrome.scripting.executeScript({target: {tabId: %d}, func: (m) => chrome.runtime.sendMessage(m).then((r) => r === undefined ? "unanswered" : "answered: " + JSON.stringify(r), (e) => "failed: " + e.message), args: [%s]}).then(([r]) => r.result)`, tab.ID, message), &got)
		if got != "unanswered" {
			t.Errorf("a content script's %s was %s", message, got)
		}
	}
	if yoloOn(t, e) {
		t.Fatal("a content script switched YOLO mode on")
	}
}
