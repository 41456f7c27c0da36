package e2e

import (
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
)

// scriptingGranted asks Chrome whether AgentTab holds the optional
// scripting permission.
func scriptingGranted(t testing.TB, e *harness.Env) bool {
	t.Helper()
	var has bool
	e.Eval(t, `chrome.permissions.contains({permissions: ["scripting"]})`, &has)
	return has
}

// setAutomation flips the popup's automation switch with a real click, as
// the user does, and waits until Chrome shows the permission as wanted.
func setAutomation(t testing.TB, e *harness.Env, on bool) {
	t.Helper()
	popup := e.OpenExtensionPage(t, "popup.html")
	defer popup.Close()
	popup.WaitText(t, "Automation through scripting", 5*time.Second)
	if scriptingGranted(t, e) == on {
		return
	}
	popup.Click(t, "#automation")
	e.WaitFor(t, "the scripting permission to change", 5*time.Second, func() bool { return scriptingGranted(t, e) == on })
}
