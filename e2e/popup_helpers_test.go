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
	popupOpenTab = "#notices button.open-tab"
	popupDismiss = "#notices button.dismiss"
)

// setYolo flips the popup's YOLO switch with a real click, as the user
// does, unless it already shows on, and waits until the popup shows the
// stored state.
func setYolo(t testing.TB, e *harness.Env, on bool) {
	t.Helper()
	popup := e.OpenExtensionPage(t, "popup.html")
	defer popup.Close()
	popup.WaitText(t, "YOLO", 5*time.Second)
	if popup.Checked(t, popupYolo) == on {
		return
	}
	popup.Click(t, popupYolo)
	// A fresh popup renders from the worker's stored state.
	e.WaitFor(t, "the YOLO switch to be stored", 5*time.Second, func() bool {
		fresh := e.OpenExtensionPage(t, "popup.html")
		defer fresh.Close()
		fresh.WaitText(t, "YOLO", 5*time.Second)
		return fresh.Checked(t, popupYolo) == on
	})
}
