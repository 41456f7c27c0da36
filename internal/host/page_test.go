package host

import (
	"context"
	"encoding/base64"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

func openOne(t *testing.T, r *rig) (*rigClient, string) {
	t.Helper()
	return openOneAt(t, r, "https://example.com/")
}

func openOneAt(t *testing.T, r *rig, url string) (*rigClient, string) {
	t.Helper()
	c := &rigClient{r.client()}
	opened := rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, protocol.OpenParams{URL: url, Mode: "create"})
	return c, opened.Tab.Tab
}

func TestSnapshotWindowsAndCache(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	lines := make([]string, 0, 500)
	for i := range 500 {
		lines = append(lines, "- button \"Button "+strings.Repeat("x", i%7)+"\" [ref=e1]")
	}
	r.ext.mu.Lock()
	r.ext.pageText = strings.Join(lines, "\n") + "\n- link \"Needle\" [ref=e9]\n"
	total := len(r.ext.pageText)
	r.ext.mu.Unlock()

	first := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(100)})
	if first.Status != protocol.SnapshotTruncated || first.Coverage != (protocol.Coverage{Start: 0, End: 100, Total: total}) || !strings.Contains(first.TruncatedReason, "capture_chars") {
		t.Fatalf("first window: %+v", first)
	}
	captured := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(100), CacheKey: "k", CaptureChars: total})
	if captured.Status != protocol.SnapshotTruncated || captured.Coverage.Total != total || !strings.Contains(captured.TruncatedReason, "start=100") {
		t.Fatalf("captured window: %+v", captured)
	}
	before := count(r.ext.seen(), protocol.NativeSnapshot)
	next := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, Start: 100, MaxChars: new(100), CacheKey: "k"})
	found := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, MaxChars: new(200), CacheKey: "k", Find: "needle"})
	if n := count(r.ext.seen(), protocol.NativeSnapshot); n != before {
		t.Fatalf("cached windows read the page again (%d snapshots)", n-before)
	}
	if next.Coverage.Start != 100 || next.Text != r.ext.pageText[100:200] {
		t.Fatalf("second window %+v", next.Coverage)
	}
	if found.Found == nil || !*found.Found || !strings.HasPrefix(found.Text, "- link \"Needle\"") || found.Status != protocol.SnapshotComplete {
		t.Fatalf("find: %+v", found)
	}
}

func TestSnapshotRefusals(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	other := &rigClient{r.client()}
	if e := callErr(t, other.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab}); e.Code != protocol.CodeNotOwned {
		t.Fatalf("another task's tab: %+v", e)
	}
	for _, p := range []map[string]any{
		{"tab": tab, "mode": "everything"},
		{"tab": tab, "max_chars": protocol.MaxMaxChars + 1},
		{"tab": tab, "start": -1},
		{"tab": tab, "capture_chars": 1000},
		{"tab": tab, "screenshot": "4k"},
		{"tab": tab, "inline_image": true},
	} {
		if e := callErr(t, c.Client, protocol.MethodSnapshot, p); e.Code != protocol.CodeInvalidParams || e.Recovery == "" {
			t.Errorf("%v: %+v", p, e)
		}
	}
	if n := count(r.ext.seen(), protocol.NativeSnapshot); n != 0 {
		t.Fatalf("refused snapshots reached the extension %d times", n)
	}
}

func TestScreenshotBlobBelongsToItsTask(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	snap := rpc[protocol.SnapshotResult](t, c.Client, protocol.MethodSnapshot, protocol.SnapshotParams{Tab: tab, Screenshot: protocol.ScreenshotViewport})
	if snap.Screenshot == nil || snap.Screenshot.MimeType != "image/png" || !strings.HasPrefix(snap.Screenshot.URI, "agenttab://blob/") {
		t.Fatalf("screenshot ref %+v", snap.Screenshot)
	}
	fi, err := os.Stat(snap.Screenshot.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("blob file: %v %v", err, fi)
	}
	got := rpc[protocol.BlobReadResult](t, c.Client, protocol.MethodBlobRead, protocol.BlobReadParams{URI: snap.Screenshot.URI})
	if got.Base64 != base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("blob content %q", got.Base64)
	}
	other := &rigClient{r.client()}
	for _, uri := range []string{snap.Screenshot.URI, strings.Replace(snap.Screenshot.URI, ".png", "/../x", 1)} {
		if e := callErr(t, other.Client, protocol.MethodBlobRead, protocol.BlobReadParams{URI: uri}); e.Code != protocol.CodeNotOwned {
			t.Fatalf("another task read %s: %+v", uri, e)
		}
	}
	rpc[protocol.FinishResult](t, c.Client, protocol.MethodFinish, nil)
	if _, err := os.Stat(snap.Screenshot.Path); !os.IsNotExist(err) {
		t.Fatalf("blob outlived its task: %v", err)
	}
}

func TestActValidationChangesNothing(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	click := map[string]any{"kind": "click", "ref": "e1"}
	many := make([]any, protocol.MaxSteps+1)
	for i := range many {
		many[i] = click
	}
	for name, p := range map[string]map[string]any{
		"no revision":             {"tab": tab, "actions": []any{click}},
		"no actions":              {"tab": tab, "expected_page_revision": 1, "actions": []any{}},
		"too many":                {"tab": tab, "expected_page_revision": 1, "actions": many},
		"unknown kind":            {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "teleport"}}},
		"click without ref":       {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "click"}}},
		"javascript nav":          {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "navigate", "url": "javascript:alert(1)"}}},
		"coordinates":             {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "click", "x": 5, "y": 5}}},
		"dialog no answer":        {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "dialog"}}},
		"wait bad until":          {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": map[string]any{"until": "forever"}}}},
		"wait on a malformed ref": {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "wait", "wait": map[string]any{"until": "ref", "ref": "button#x"}}}},
		// A wait belongs to wait steps only (a click carrying one crashed the host: issue 9 review).
		"click with a wait": {"tab": tab, "expected_page_revision": 1, "actions": []any{map[string]any{"kind": "click", "ref": "e1", "wait": map[string]any{"until": "load"}}}},
	} {
		e := callErr(t, c.Client, protocol.MethodAct, p)
		if e.Outcome != protocol.OutcomeNotStarted || (e.Code != protocol.CodeInvalidParams && e.Code != protocol.CodeInvalidURL) {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 0 {
		t.Fatalf("refused batches reached the extension %d times", n)
	}
}

func TestActStoppedBatchIsAResultWithItsError(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	stale := protocol.NewError(protocol.CodeStaleRef, protocol.OutcomeNotStarted, "gone", "Take a new snapshot.")
	r.ext.mu.Lock()
	r.ext.actSteps = []protocol.StepReceipt{
		{Index: 0, Kind: protocol.StepFill, Outcome: protocol.OutcomeConfirmed},
		{Index: 1, Kind: protocol.StepClick, Outcome: protocol.OutcomeNotStarted, Error: stale},
		{Index: 2, Kind: protocol.StepPress, Outcome: protocol.OutcomeNotStarted},
	}
	r.ext.mu.Unlock()
	res := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, Actions: []protocol.Step{
		{Kind: protocol.StepFill, Ref: "e1", Text: "x"}, {Kind: protocol.StepClick, Ref: "e2"}, {Kind: protocol.StepPress, Keys: "Enter"},
	}})
	if res.Error == nil || res.Error.Code != protocol.CodeStaleRef || res.Outcome != protocol.OutcomeConfirmed || res.PageRevision != 1 || len(res.Steps) != 3 {
		t.Fatalf("receipt %+v", res)
	}
	audit, _ := os.ReadFile(r.dir.Audit())
	if !strings.Contains(string(audit), `"error_code":"stale_ref"`) {
		t.Fatalf("the stopped batch is not audited with its error code:\n%s", audit)
	}
}

func TestWaitDoesNotBlockLaterMutations(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	r.ext.mu.Lock()
	r.ext.waitDelay = time.Second
	r.ext.mu.Unlock()
	var wg sync.WaitGroup
	var waitDone, actDone time.Time
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Call(context.Background(), protocol.MethodWait, protocol.WaitParams{Tab: tab, Condition: protocol.WaitCondition{Until: protocol.WaitLoad}}, nil)
		waitDone = time.Now()
	}()
	time.Sleep(100 * time.Millisecond)
	rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}})
	actDone = time.Now()
	wg.Wait()
	if !actDone.Before(waitDone) {
		t.Fatal("a mutation waited behind a browser_wait of its own task")
	}
}
