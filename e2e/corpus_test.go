package e2e

import (
	"testing"

	"github.com/agenttab/agenttab/e2e/harness"
)

// TestCorpus: the scripted agent completes every corpus task against
// AgentTab (issue 11 "How it is proven"): real widget libraries from npm,
// only the default snapshot and the documented tools, and each page's own
// post to /record proves the task done.
func TestCorpus(t *testing.T) {
	e := harness.Start(t)
	base, rec := serveCorpus(t, e, nil)
	tools := &agentTabTools{s: e.MCP(t)}
	for _, task := range corpusTasks {
		t.Run(task.page, func(t *testing.T) {
			*tools.meter() = callMeter{}
			err := runTask(tools, base, rec, task)
			m := tools.meter()
			if err != nil {
				t.Fatalf("%s\nfailed after %d calls: %v", task.goal, m.calls, err)
			}
			t.Logf("%d calls, %d snapshot characters, %d characters in all", m.calls, m.snapshotChars, m.chars)
		})
	}
}
