package host

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

// Canaries a URL carries: its user info, query values and fragment. None
// may reach a file under the state directory; no result may carry the
// user info.
const (
	canaryUser     = "canaryuser"
	canaryPassword = "canarypass"
	canaryQuery    = "CANARYQUERY"
	canaryFragment = "CANARYFRAG"
	canaryPageText = "CANARYPAGE"
)

var urlCanaries = []string{canaryUser, canaryPassword, canaryQuery, canaryFragment, canaryPageText}

const secretURL = "http://" + canaryUser + ":" + canaryPassword + "@example.test:8080/page?token=" + canaryQuery + "&x=1#" + canaryFragment

// An agent opens, acts on (navigate, with a snapshot after it) and
// finishes a task on URLs that carry secrets, every mutation with a key
// and sent twice. The fake extension reports URLs as Chromium 156 does
// (the tab's URL keeps its user info) and echoes them in a note and a
// step's error message. No result carries the user info, and no file
// under the state directory (state.db, its WAL, audit.jsonl, host.log)
// holds any canary, while the host runs or after it stopped.
func TestURLSecretsNeverReachTheStateDirectory(t *testing.T) {
	r := startRig(t)
	c := r.client()
	var results []any
	keep := func(v any) { results = append(results, v) }

	open := protocol.OpenParams{URL: secretURL, Mode: "create", IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000a1"}
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, open)
	keep(opened)
	keep(rpc[protocol.OpenResult](t, c, protocol.MethodOpen, open))
	if want := "http://example.test:8080/page?token=" + canaryQuery + "&x=1#" + canaryFragment; opened.Tab.URL != want {
		t.Errorf("open answered url %q, want %q: the agent sees its URL without the user info", opened.Tab.URL, want)
	}
	keep(rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil))

	// A failure is recorded too, and its message quotes the URL.
	r.ext.mu.Lock()
	r.ext.failGroup = true
	r.ext.mu.Unlock()
	failing := protocol.OpenParams{URL: secretURL + "2", Mode: "create", IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000a5"}
	for range 2 {
		if e := callErr(t, c, protocol.MethodOpen, failing); e.Code != protocol.CodeGroupFailed {
			t.Fatalf("the failing open: %+v", e)
		} else {
			keep(e)
		}
	}

	r.ext.mu.Lock()
	r.ext.pageText = `- link "Next" [url=http://example.test/next?session=` + canaryPageText + `] [ref=e1]`
	r.ext.actSteps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepNavigate, Outcome: protocol.OutcomeConfirmed, Navigation: protocol.NavigationCommitted, Note: "went to " + secretURL}}
	r.ext.mu.Unlock()
	act := protocol.ActParams{Tab: opened.Tab.Tab, ExpectedPageRevision: 1, SnapshotAfter: true, IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000a2",
		Actions: []protocol.Step{{Kind: protocol.StepNavigate, URL: secretURL}}}
	keep(rpc[protocol.ActResult](t, c, protocol.MethodAct, act))
	keep(rpc[protocol.ActResult](t, c, protocol.MethodAct, act))

	// A batch stopped by a step whose error message quotes the URL.
	r.ext.mu.Lock()
	r.ext.actSteps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepBack, Outcome: protocol.OutcomeNotStarted,
		Error: protocol.NewError(protocol.CodeOriginPolicyDenied, protocol.OutcomeNotStarted, "the navigation to "+secretURL+" was stopped", "choose another page")}}
	r.ext.mu.Unlock()
	back := protocol.ActParams{Tab: opened.Tab.Tab, ExpectedPageRevision: 2, IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000a4",
		Actions: []protocol.Step{{Kind: protocol.StepBack}}}
	keep(rpc[protocol.ActResult](t, c, protocol.MethodAct, back))
	keep(rpc[protocol.ActResult](t, c, protocol.MethodAct, back))
	keep(rpc[protocol.SnapshotResult](t, c, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: opened.Tab.Tab}))
	keep(rpc[protocol.WaitResult](t, c, protocol.MethodWait, protocol.WaitParams{Tab: opened.Tab.Tab, Condition: protocol.WaitCondition{Until: protocol.WaitLoad}}))
	finish := protocol.FinishParams{IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000a3"}
	keep(rpc[protocol.FinishResult](t, c, protocol.MethodFinish, finish))
	keep(rpc[protocol.FinishResult](t, c, protocol.MethodFinish, finish))

	for i, res := range results {
		b, _ := json.Marshal(res)
		for _, secret := range []string{canaryUser, canaryPassword} {
			if strings.Contains(string(b), secret) {
				t.Errorf("result %d carries the URL's user info (%s): %s", i, secret, b)
			}
		}
	}
	noCanaryUnder(t, string(r.dir), urlCanaries...)
	r.stop()
	noCanaryUnder(t, string(r.dir), urlCanaries...)
}

// A repeated key answers the record the host kept: the first answer's
// identifiers and state, with each URL cut to its origin (as audit.jsonl
// keeps it), no page title and no snapshot.
func TestReplayAnswersTheReducedRecord(t *testing.T) {
	r := startRig(t)
	c := r.client()
	open := protocol.OpenParams{URL: secretURL, Mode: "create", IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000b1"}
	first := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, open)
	again := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, open)
	want := first
	want.Replay, want.Tab.URL, want.Tab.Title = true, "http://example.test:8080", ""
	if diff := cmp.Diff(want, again); diff != "" {
		t.Errorf("replayed open (-want +got):\n%s", diff)
	}

	r.ext.mu.Lock()
	r.ext.actSteps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepNavigate, Outcome: protocol.OutcomeConfirmed, Note: "went to " + secretURL + " and stayed"}}
	r.ext.mu.Unlock()
	act := protocol.ActParams{Tab: first.Tab.Tab, ExpectedPageRevision: 1, SnapshotAfter: true, IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000b2",
		Actions: []protocol.Step{{Kind: protocol.StepNavigate, URL: secretURL}}}
	acted := rpc[protocol.ActResult](t, c, protocol.MethodAct, act)
	if acted.Snapshot == nil {
		t.Fatalf("the first answer has no snapshot: %+v", acted)
	}
	replayed := rpc[protocol.ActResult](t, c, protocol.MethodAct, act)
	wantAct := acted
	wantAct.Replay, wantAct.URL, wantAct.Title, wantAct.Snapshot = true, "http://example.test:8080", "", nil
	wantAct.Steps = []protocol.StepReceipt{{Index: 0, Kind: protocol.StepNavigate, Outcome: protocol.OutcomeConfirmed, Note: "went to http://example.test:8080 and stayed"}}
	if diff := cmp.Diff(wantAct, replayed); diff != "" {
		t.Errorf("replayed act (-want +got):\n%s", diff)
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 1 {
		t.Errorf("the extension ran %d batches, want 1", n)
	}

	// A recorded failure answers its message with the URL cut the same way.
	r.ext.mu.Lock()
	r.ext.failGroup = true
	r.ext.mu.Unlock()
	failing := protocol.OpenParams{URL: secretURL, Mode: "create", IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000b3"}
	firstErr := callErr(t, c, protocol.MethodOpen, failing)
	againErr := callErr(t, c, protocol.MethodOpen, failing)
	if want := "grouping the tab for http://example.test:8080/page?token=" + canaryQuery + "&x=1#" + canaryFragment + " failed"; firstErr.Message != want {
		t.Errorf("first failure %q, want %q", firstErr.Message, want)
	}
	wantErr := *firstErr
	wantErr.Message = "grouping the tab for http://example.test:8080 failed"
	if diff := cmp.Diff(wantErr, *againErr); diff != "" {
		t.Errorf("replayed failure (-want +got):\n%s", diff)
	}
}

// noCanaryUnder fails the test for every file under dir that holds one of
// the canaries.
func noCanaryUnder(t *testing.T, dir string, canaries ...string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, canary := range canaries {
			if strings.Contains(string(data), canary) {
				t.Errorf("%s holds %q", path, canary)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The table is the extension's too (userinfo.test.ts): its URL waits cut
// user info exactly as the host does.
func TestWithoutUserinfo(t *testing.T) {
	raw, err := os.ReadFile("../../protocol/testdata/userinfo.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct{ In, Want string } `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil || len(table.Cases) == 0 {
		t.Fatalf("protocol/testdata/userinfo.json: %v", err)
	}
	for _, tt := range table.Cases {
		if got := string(withoutUserinfo([]byte(tt.In))); got != tt.Want {
			t.Errorf("withoutUserinfo(%s) = %s, want %s", tt.In, got, tt.Want)
		}
	}
}
