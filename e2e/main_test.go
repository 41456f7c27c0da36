// Package e2e proves AgentTab end to end: the real agenttab binary, started
// by a real Chromium through native messaging, with the real extension,
// driven by an MCP client, against pages the tests serve. Chrome's own state
// is read from the extension's service worker, independently of what the
// product answers.
package e2e

import (
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
