package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// clickCounterPage counts its button's clicks on the page and, with a
// synchronous request, on the server, so the server has the count before
// the click's receipt exists.
const clickCounterPage = `<!doctype html><title>Click counter</title>
<p id="c">Clicks 0</p>
<button onclick="hit()">Hit</button>
<script>
let clicks = 0;
function hit() {
  clicks++;
  document.getElementById('c').textContent = 'Clicks ' + clicks;
  const x = new XMLHttpRequest();
  x.open('POST', '/hit', false);
  x.send();
}
</script>`

// An agent's own idempotency key ("retry-1", not a UUIDv7) works through
// the real `agenttab mcp`: the adapter maps it to a UUIDv7 of the task
// (spec 000: Core keys are UUIDv7s), so the same call again is a replay
// with the first receipt and the page was clicked once; after the adapter
// restarts (same agent process, so the same capability file and the task
// resumed) the retry is still a replay. The agent's key is written nowhere
// under the state directory, and the adapter's key seed is owner-only.
func TestAgentIdempotencyKeyReplaysAcrossAdapterRestart(t *testing.T) {
	e := harness.Start(t)
	var hits atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, clickCounterPage) })
	mux.HandleFunc("/hit", func(http.ResponseWriter, *http.Request) { hits.Add(1) })
	base := e.Serve(mux)

	s := e.MCP(t)
	tab := handleOf(t, ok(t, s, protocol.MethodOpen, map[string]any{"url": base + "/"}))
	text, rev, _ := snap(t, s, tab, nil)
	const agentKey = "retry-1"
	click := map[string]any{"tab": tab, "expected_page_revision": rev, "idempotency_key": agentKey,
		"actions": []any{step("click", "ref", refOf(t, text, "button", "Hit"))}}

	first := ok(t, s, protocol.MethodAct, click)
	if first["replay"] == true || hits.Load() != 1 {
		t.Fatalf("the first click: %v, %d hits", first, hits.Load())
	}
	replayed := func(s *mcp.ClientSession, when string) {
		t.Helper()
		again := ok(t, s, protocol.MethodAct, click)
		if again["replay"] != true || receipts(again) != receipts(first) {
			t.Errorf("%s: %v, want a replay of %v", when, again, first)
		}
		if text, _, _ := snap(t, s, tab, nil); !strings.Contains(text, "Clicks 1") || hits.Load() != 1 {
			t.Errorf("%s: the page was clicked again (%d hits):\n%s", when, hits.Load(), text)
		}
	}
	replayed(s, "the same call again")

	// The agent process starts its adapter again: the new one claims the
	// same capability file, resumes the task, and maps the key as before.
	s.Close()
	s = e.MCP(t)
	replayed(s, "the retry after the adapter restarted")

	noSecretInState(t, e, "", agentKey)
	seeds, _ := filepath.Glob(filepath.Join(e.StateDir, "adapters", "mcp-stdio-*.keys"))
	if len(seeds) != 1 {
		t.Fatalf("adapter key seeds: %v, want one", seeds)
	}
	if info, err := os.Stat(seeds[0]); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the key seed %s: %v, %v; want mode 0600", seeds[0], info, err)
	}
}

// receipts is a batch's step receipts as the agent reads them: index,
// kind and outcome of each step.
func receipts(res map[string]any) string {
	var out []string
	for _, st := range stepsOf(res) {
		b, _ := json.Marshal([]any{st["index"], st["kind"], st["outcome"]})
		out = append(out, string(b))
	}
	return strings.Join(out, " ")
}
