package host

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// profileFake is the fake extension's browser_profile, as the real one
// answers (extension/src/background/profile): reads answer items, writes
// ids and state, bookmarks_remove a stage report, its commit a removal.
type profileFake struct {
	mu       sync.Mutex
	requests []protocol.ExtProfileParams
	classes  []protocol.RequestClass
}

const (
	profileCanaryTitle = "canary-title-4b1e"
	profileCanaryURL   = "https://canary-host.example/canary-path-77?canary-q=1"
	profileCanaryQuery = "canary-search-9a0c"
	profileKey         = "0190b2a0-0000-7000-8000-0000000000a1"
	profileKey2        = "0190b2a0-0000-7000-8000-0000000000a2"
	removeHandle       = "b00c0000b00c0000b00c0000b00c0000b00c0000b00c0000b00c0000b00c0000"
)

func withProfileFake(pf *profileFake, also ...func(*fakeExtension)) rigOption {
	return withFake(func(f *fakeExtension) {
		for _, a := range also {
			a(f)
		}
		f.script = func(r seenRequest) (any, *protocol.Error) {
			if r.Method != protocol.NativeProfile {
				return f.handle(r.Method, r.Params)
			}
			var p protocol.ExtProfileParams
			if err := json.Unmarshal(r.Params, &p); err != nil {
				return nil, protocol.Fail(protocol.CodeInvalidParams, err.Error())
			}
			pf.mu.Lock()
			pf.requests = append(pf.requests, p)
			pf.classes = append(pf.classes, r.Class)
			pf.mu.Unlock()
			switch p.Params.Op {
			case protocol.ProfileBookmarksSearch, protocol.ProfileHistorySearch:
				// The items carry the private data: to the agent only.
				return protocol.ExtProfileResult{Items: []any{map[string]any{"id": "7", "title": profileCanaryTitle, "url": profileCanaryURL}}, Truncated: true}, nil
			case protocol.ProfileBookmarksCreate:
				// An answer with more than ids and state: the host keeps only those.
				return protocol.ExtProfileResult{IDs: []string{"42"}, State: "created", Items: []any{profileCanaryTitle}}, nil
			case protocol.ProfileBookmarksRemove:
				if p.Commit != nil {
					return protocol.ExtProfileResult{IDs: []string{"7"}, State: "removed"}, nil
				}
				handle := removeHandle
				if p.Params.ID != "7" {
					handle = hexSHA256(p.Params.ID)
				}
				f.yoloBeforeAnswer()
				return protocol.ExtProfileResult{Staged: &protocol.ExtStage{ReviewHandle: handle, Effect: protocol.EffectBookmarkRemove,
					Fingerprint: strings.Repeat("a", 64), PreviewDigest: strings.Repeat("b", 64)}}, nil
			case protocol.ProfileSessionsRestore:
				tab := protocol.ExtTab{TabID: 900, WindowID: 1, GroupID: 5, URL: profileCanaryURL, Title: profileCanaryTitle, Revision: 1}
				f.mu.Lock()
				f.tabs[tab.TabID], f.owner[tab.TabID] = &tab, p.Task.TaskID
				f.mu.Unlock()
				return protocol.ExtProfileResult{Tabs: []protocol.ExtTab{tab}}, nil
			}
			return protocol.ExtProfileResult{IDs: []string{p.Params.ID}, State: "paused"}, nil
		}
	})
}

func (pf *profileFake) seen() []protocol.ExtProfileParams {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	return append([]protocol.ExtProfileParams(nil), pf.requests...)
}

// Reads answer the extension's items as a global request with the default
// bound; writes answer ids and state only, and replay them by key.
func TestProfileReadsAndWrites(t *testing.T) {
	pf := &profileFake{}
	r := startRig(t, withProfileFake(pf))
	c := r.client()
	res := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_search", "query": profileCanaryQuery})
	if res.Outcome != protocol.OutcomeObserved || len(res.Items) != 1 || !strings.Contains(toJSON(res.Items), profileCanaryTitle) || !res.Truncated {
		t.Fatalf("search: %+v", res)
	}
	seen := pf.seen()
	if len(seen) != 1 || seen[0].Params.Query != profileCanaryQuery || seen[0].Params.MaxResults == nil || *seen[0].Params.MaxResults != protocol.DefaultProfileResults || seen[0].Task.TaskID == "" {
		t.Fatalf("extension got %+v", seen)
	}
	if pf.classes[0] != protocol.ClassGlobal {
		t.Errorf("class %q, want global", pf.classes[0])
	}
	args := map[string]any{"op": "bookmarks_create", "title": profileCanaryTitle, "url": profileCanaryURL, "idempotency_key": profileKey}
	w := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, args)
	if w.Outcome != protocol.OutcomeConfirmed || toJSON(w.IDs) != `["42"]` || w.State != "created" || w.Items != nil || w.Replay {
		t.Fatalf("create: %+v", w)
	}
	again := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, args)
	if !again.Replay || toJSON(again.IDs) != `["42"]` || len(pf.seen()) != 2 {
		t.Fatalf("replay: %+v (%d requests)", again, len(pf.seen()))
	}
	if d := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "downloads_pause", "id": "12"}); d.State != "paused" || toJSON(d.IDs) != `["12"]` {
		t.Errorf("pause a download: %+v", d)
	}
}

// Arguments are checked by the operation's rule before anything reaches
// the extension or a task is made.
func TestProfileArgumentRules(t *testing.T) {
	pf := &profileFake{}
	r := startRig(t, withProfileFake(pf))
	c := r.client()
	for name, args := range map[string]map[string]any{
		"unknown op":          {"op": "history_delete"},
		"no op":               {"query": "x"},
		"update without id":   {"op": "bookmarks_update", "title": "x"},
		"update with nothing": {"op": "bookmarks_update", "id": "7"},
		"tree takes no query": {"op": "bookmarks_tree", "query": "x"},
		"read takes no key":   {"op": "history_search", "idempotency_key": profileKey},
		"max_results 0":       {"op": "history_search", "max_results": 0},
		"max_results over":    {"op": "history_search", "max_results": protocol.MaxProfileResults + 1},
		"range backwards":     {"op": "history_search", "start_time_ms": 2000, "end_time_ms": 1000},
		"bookmarklet":         {"op": "bookmarks_create", "title": "x", "url": "javascript:alert(1)"},
		"local file":          {"op": "bookmarks_create", "title": "x", "url": "file:///etc/passwd"},
		"browser page":        {"op": "bookmarks_update", "id": "5", "url": "chrome://settings/"},
		"relative url":        {"op": "bookmarks_create", "url": "/page"},
		"bad id":              {"op": "downloads_cancel", "id": "1 OR 1"},
		"negative index":      {"op": "bookmarks_move", "id": "7", "index": -1},
		"unknown field":       {"op": "sessions_list", "canary": "x"},
	} {
		e := callErr(t, c, protocol.MethodProfile, args)
		if e == nil || e.Outcome != protocol.OutcomeNotStarted || (e.Code != protocol.CodeInvalidParams && e.Code != protocol.CodeInvalidURL) {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if n := len(pf.seen()); n != 0 {
		t.Errorf("%d requests reached the extension", n)
	}
}

// While paused, nothing reaches the extension (not_started).
func TestProfilePaused(t *testing.T) {
	pf := &profileFake{}
	r := startRig(t, withProfileFake(pf))
	rpc[protocol.PauseResult](t, r.client(), protocol.MethodPause, nil)
	e := callErr(t, r.client(), protocol.MethodProfile, map[string]any{"op": "history_search"})
	if e == nil || e.Code != protocol.CodePaused || e.Outcome != protocol.OutcomeNotStarted || len(pf.seen()) != 0 {
		t.Fatalf("paused: %+v, %d requests", e, len(pf.seen()))
	}
}

// Managed origin lists refuse sessions_restore before execution; without
// them the restored tabs are the task's.
func TestProfileSessionsRestore(t *testing.T) {
	pf := &profileFake{}
	dir := tempStateDir(t)
	if err := os.WriteFile(dir.Policy(), []byte(testOrigins), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRig(t, withDir(dir), withProfileFake(pf))
	e := callErr(t, r.client(), protocol.MethodProfile, map[string]any{"op": "sessions_restore", "id": "3"})
	if e == nil || e.Code != protocol.CodeOriginPolicyUnverifiable || e.Outcome != protocol.OutcomeNotStarted || len(pf.seen()) != 0 {
		t.Fatalf("restore under origin lists: %+v, %d requests", e, len(pf.seen()))
	}

	pf2 := &profileFake{}
	r2 := startRig(t, withProfileFake(pf2))
	c := r2.client()
	res := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "sessions_restore", "id": "3"})
	if res.Outcome != protocol.OutcomeConfirmed || len(res.Tabs) != 1 {
		t.Fatalf("restore: %+v", res)
	}
	tabs := rpc[protocol.TabsResult](t, c, protocol.MethodTabs, nil)
	if len(tabs.Tabs) != 1 || tabs.Tabs[0].Tab != res.Tabs[0] {
		t.Errorf("restored tab %s not owned: %+v", res.Tabs[0], tabs)
	}
}

// bookmarks_remove stages (YOLO mode on: the fake's default), is committed
// after the popup's approval, and the commit asks the extension to remove
// it by the stage's handle digest and fingerprint.
func TestProfileBookmarkRemoveStagesAndCommits(t *testing.T) {
	pf := &profileFake{}
	r := startRig(t, withProfileFake(pf, func(f *fakeExtension) { f.review.yolo = true }))
	c := r.client()
	res := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_remove", "id": "7", "idempotency_key": profileKey})
	if res.Outcome != protocol.OutcomeStaged || res.Stage == nil || res.Stage.Effect != protocol.EffectBookmarkRemove {
		t.Fatalf("remove: %+v", res)
	}
	if e := callErr(t, c, protocol.MethodCommit, protocol.CommitParams{Stage: res.Stage.Stage}); e == nil || e.Code != protocol.CodeStageNotApproved {
		t.Fatalf("commit before approval: %+v", e)
	}
	if st := r.ext.reviewStage(t, removeHandle, true); st != protocol.StageApproved {
		t.Fatalf("review: %s", st)
	}
	cr := rpc[protocol.CommitResult](t, c, protocol.MethodCommit, protocol.CommitParams{Stage: res.Stage.Stage, IdempotencyKey: profileKey2})
	if cr.Outcome != protocol.OutcomeConfirmed || cr.Effect != protocol.EffectBookmarkRemove {
		t.Fatalf("commit: %+v", cr)
	}
	seen := pf.seen()
	last := seen[len(seen)-1]
	if len(seen) != 2 || last.Commit == nil || last.Commit.ReviewHandleDigest != hexSHA256(removeHandle) || last.Commit.Fingerprint != strings.Repeat("a", 64) {
		t.Fatalf("commit request: %+v", seen)
	}
	if e := callErr(t, c, protocol.MethodCommit, protocol.CommitParams{Stage: res.Stage.Stage}); e == nil || e.Code != protocol.CodeStageConsumed {
		t.Errorf("second commit: %+v", e)
	}
}

// A bookmark removal's stage is outside YOLO mode's scope
// (ARCHITECTURE.md "browser_profile"): the user's switch to on as the
// remove answers (stageGate's epoch), the switch later, and a hello with
// YOLO mode on leave it as it was; finishing the task discards it.
func TestProfileBookmarkStageOutlivesYolo(t *testing.T) {
	pf := &profileFake{}
	dir := tempStateDir(t)
	yolo := func(f *fakeExtension) { f.review.yolo = true }
	r := startRig(t, withDir(dir), withProfileFake(pf, yolo))
	c := r.client()
	r.ext.mu.Lock()
	r.ext.review.yoloWithAct = true
	r.ext.mu.Unlock()
	kept := rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_remove", "id": "7"})
	if kept.Outcome != protocol.OutcomeStaged || kept.Stage == nil {
		t.Fatalf("remove: %+v", kept)
	}
	if e := callErr(t, c, protocol.MethodCommit, protocol.CommitParams{Stage: kept.Stage.Stage}); e == nil || e.Code != protocol.CodeStageNotApproved {
		t.Fatalf("a stage made as YOLO mode came on: %+v", e)
	}
	a := r.ext.ask(protocol.NativeYolo, protocol.YoloParams{On: true})
	var yr protocol.YoloResult
	json.Unmarshal(a.Result, &yr)
	if a.Error != nil || yr.Discarded != 0 {
		t.Fatalf("yolo on: %+v %s", a.Error, a.Result)
	}
	if st := r.ext.reviewStage(t, removeHandle, true); st != protocol.StageApproved {
		t.Fatalf("review after YOLO on: %s", st)
	}
	// Another task's stage goes with its task.
	c2 := r.client()
	gone := rpc[protocol.ProfileResult](t, c2, protocol.MethodProfile, map[string]any{"op": "bookmarks_remove", "id": "8"})
	seen := pf.seen()
	keptTask, goneTask := seen[0].Task.TaskID, seen[len(seen)-1].Task.TaskID
	rpc[protocol.FinishResult](t, c2, protocol.MethodFinish, nil)
	r.stop()
	startRig(t, withDir(dir), withProfileFake(&profileFake{}, yolo)).stop()
	db, err := store.Open(dir.DB())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for stage, want := range map[string]struct {
		task  string
		state protocol.StageState
	}{kept.Stage.Stage: {keptTask, protocol.StageApproved}, gone.Stage.Stage: {goneTask, protocol.StageDiscarded}} {
		if st, err := db.StageOf(context.Background(), want.task, stage); err != nil || st.State != want.state {
			t.Errorf("stage %s after a YOLO hello: %s %v, want %s", stage, st.State, err, want.state)
		}
	}
}

// No title, URL or search text reaches the audit, the host log or
// state.db (and its WAL); the audit names the operation.
func TestProfileCanariesStayWithTheAgent(t *testing.T) {
	pf := &profileFake{}
	r := startRig(t, withProfileFake(pf))
	c := r.client()
	rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "history_search", "query": profileCanaryQuery})
	rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_create", "title": profileCanaryTitle, "url": profileCanaryURL, "idempotency_key": profileKey})
	rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_update", "id": "42", "title": profileCanaryTitle + "-2", "url": profileCanaryURL + "&2"})
	rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_remove", "id": "42"})
	rpc[protocol.ProfileResult](t, c, protocol.MethodProfile, map[string]any{"op": "sessions_restore", "id": "3"})
	callErr(t, c, protocol.MethodProfile, map[string]any{"op": "bookmarks_create", "title": profileCanaryTitle, "url": "javascript:canary()"})
	r.stop()
	for _, path := range []string{r.dir.Audit(), r.dir.HostLog(), r.dir.DB(), r.dir.DB() + "-wal"} {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToLower(data), []byte("canary")) {
			i := bytes.Index(bytes.ToLower(data), []byte("canary"))
			t.Errorf("%s holds a canary: …%q…", path, data[max(0, i-80):min(len(data), i+80)])
		}
	}
	audit, _ := os.ReadFile(r.dir.Audit())
	for _, op := range []string{"history_search", "bookmarks_create", "bookmarks_update", "bookmarks_remove", "sessions_restore"} {
		if !bytes.Contains(audit, []byte(`"operation":"`+op+`"`)) {
			t.Errorf("the audit does not name %s", op)
		}
	}
}
