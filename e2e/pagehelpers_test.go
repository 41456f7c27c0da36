package e2e

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"

	"github.com/agenttab/agenttab/protocol"
)

// snap takes an interactive snapshot and returns its text and revision.
func snap(t testing.TB, s *mcp.ClientSession, tab string, extra map[string]any) (string, int64, map[string]any) {
	t.Helper()
	args := map[string]any{"tab": tab}
	for k, v := range extra {
		args[k] = v
	}
	res := ok(t, s, protocol.MethodSnapshot, args)
	text, _ := res["text"].(string)
	rev, _ := res["page_revision"].(float64)
	return text, int64(rev), res
}

// refOf finds the ref of the first line with role and name in a snapshot.
func refOf(t testing.TB, text, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\s*- ` + regexp.QuoteMeta(role) + ` "` + regexp.QuoteMeta(name) + `"[^\n]*?\[ref=(e\d+)\]`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s %q with a ref in the snapshot:\n%s", role, name, text)
	}
	return m[1]
}

// act runs a batch that must complete and returns its result.
func act(t testing.TB, s *mcp.ClientSession, tab string, rev int64, steps ...map[string]any) map[string]any {
	t.Helper()
	actions := make([]any, len(steps))
	for i, st := range steps {
		actions[i] = st
	}
	return ok(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions})
}

// refusalWaitMs bounds the actionability wait of batches the tests expect
// to be refused.
const refusalWaitMs = 300

// beforeSteps is the failed step of a batch refused as a whole before any
// step ran (a stale revision, a target the tab may not visit): the answer
// is the error alone, not_started, without receipts.
const beforeSteps = -1

// actFailed runs a batch that must fail with code at step at (or
// beforeSteps), and checks the receipts: no step before at failed, step at
// carries code, and no step after it ran. It returns the result; what the
// page saw is the caller's to prove with the page's own counters.
func actFailed(t testing.TB, s *mcp.ClientSession, tab string, rev int64, code protocol.ErrorCode, at int, steps ...map[string]any) map[string]any {
	t.Helper()
	actions := make([]any, len(steps))
	for i, st := range steps {
		actions[i] = st
	}
	// A refusal that waiting could lift is proven after a short wait, not
	// the default 5 s (the wait itself: e2e/actionability_wait_test.go).
	res := refusedAny(t, s, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": actions, "actionable_timeout_ms": refusalWaitMs})
	if at == beforeSteps {
		if res["code"] != string(code) || res["outcome"] != string(protocol.OutcomeNotStarted) || res["steps"] != nil {
			t.Fatalf("act: %v, want the batch refused %s, not_started, before any step", res, code)
		}
		return res
	}
	errObj, _ := res["error"].(map[string]any)
	got := stepsOf(res)
	if errObj == nil || errObj["code"] != string(code) || len(got) != len(steps) {
		t.Fatalf("act: %v, want step %d of %d failed %s with every receipt", res, at, len(steps), code)
	}
	for i, st := range got {
		stepErr, _ := st["error"].(map[string]any)
		switch {
		case st["index"] != float64(i):
			t.Fatalf("act: receipt %d has index %v: %v", i, st["index"], res)
		case i < at && stepErr != nil:
			t.Fatalf("act: step %d failed before step %d: %v", i, at, res)
		case i == at && (stepErr == nil || stepErr["code"] != string(code)):
			t.Fatalf("act: step %d: %v, want it failed %s", i, st, code)
		case i > at && (stepErr != nil || st["outcome"] != string(protocol.OutcomeNotStarted)):
			t.Fatalf("act: step %d ran after step %d failed: %v", i, at, res)
		}
	}
	return res
}

// actRefused is actFailed for a refusal: step at did not start either, so
// the batch did nothing from it on (and nothing at all when at is 0 or
// beforeSteps).
func actRefused(t testing.TB, s *mcp.ClientSession, tab string, rev int64, code protocol.ErrorCode, at int, steps ...map[string]any) map[string]any {
	t.Helper()
	res := actFailed(t, s, tab, rev, code, at, steps...)
	if at == beforeSteps {
		return res
	}
	if st := stepsOf(res)[at]; st["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("act: the refused step %d: %v, want not_started", at, st)
	}
	if at == 0 && res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Fatalf("act: a batch refused at its first step: outcome %v, want not_started", res["outcome"])
	}
	return res
}

// refusedAny calls a tool that must fail and returns its structured result.
func refusedAny(t testing.TB, s *mcp.ClientSession, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, isErr := harness.CallTool(t, s, tool, args)
	if !isErr {
		t.Fatalf("%s succeeded, want a failure: %v", tool, res)
	}
	return res
}

func stepsOf(res map[string]any) []map[string]any {
	raw, _ := res["steps"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, r := range raw {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

func revisionOf(res map[string]any) int64 {
	v, _ := res["page_revision"].(float64)
	return int64(v)
}

func step(kind string, kv ...any) map[string]any {
	m := map[string]any{"kind": kind}
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return m
}
