package e2e

import (
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
)

// The popup's controls, as a user finds them (extension/src/popup).
const (
	popupYolo    = "#yolo"
	popupApprove = "#stages button.approve"
	popupDeny    = "#stages button.deny"
)

// yoloOn reads the worker's stored YOLO switch (background/review/reviews.ts
// YOLO_KEY; absent means on, the default).
func yoloOn(t testing.TB, e *harness.Env) bool {
	t.Helper()
	var on bool
	e.Eval(t, `chrome.storage.local.get("yolo").then(v => v.yolo !== false)`, &on)
	return on
}

// setYolo flips the popup's YOLO switch with a real click, as the user
// does, unless it is already as wanted, and waits until the worker stored
// the change (turning it on has then discarded the stages).
func setYolo(t testing.TB, e *harness.Env, on bool) {
	t.Helper()
	if yoloOn(t, e) == on {
		return
	}
	popup := e.OpenExtensionPage(t, "popup.html")
	defer popup.Close()
	popup.WaitText(t, "YOLO mode", 5*time.Second)
	popup.Click(t, popupYolo)
	e.WaitFor(t, "the YOLO switch to be stored", 5*time.Second, func() bool { return yoloOn(t, e) == on })
}
