package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Canaries: unique strings the profile holds (seeded through Chrome's own
// APIs, or written through browser_profile) that must reach the requesting
// agent and nothing else: no file under the state directory, no log, no
// other task's answer (spec 000 "Private data stays with the caller").
const (
	canaryFolder   = "CnryFolderQx3v"
	canaryTitle    = "CnryTitleQx1v"
	canaryBmPath   = "/CnryPathQx2v"
	canaryGone     = "CnryGoneQx4v"
	canaryVisit    = "CnryVisitQx5v"
	canaryFile     = "CnryFileQx6v"
	canaryMade     = "CnryMadeQx7v"
	canaryEdit     = "CnryEditQx8v"
	canaryClosed   = "CnryClosedQx9v"
	canarySearch   = "CnrySearchQx0v"
	canaryDownPath = "/CnryDownQxAv"
)

var profileCanaries = []string{canaryFolder, canaryTitle, canaryBmPath, canaryGone, canaryVisit, canaryFile, canaryMade, canaryEdit, canaryClosed, canarySearch, canaryDownPath}

// noCanaryAnywhere checks the state directory (audit.jsonl, host.log,
// state.db and its WAL), Chromium's output and every MCP server's stderr.
func noCanaryAnywhere(t *testing.T, e *harness.Env, others ...map[string]any) {
	t.Helper()
	// The audit recorded the calls (so its silence is redaction, not absence).
	if audit, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl")); err != nil || !strings.Contains(string(audit), protocol.MethodProfile) {
		t.Errorf("audit.jsonl holds no %s record (%v)", protocol.MethodProfile, err)
	}
	noSecretInState(t, e, "", profileCanaries...)
	logs := e.Logs()
	for _, c := range profileCanaries {
		if strings.Contains(logs, c) {
			t.Errorf("a log (Chromium output or an MCP server's stderr) holds %q", c)
		}
		for _, o := range others {
			if strings.Contains(fmt.Sprint(o), c) {
				t.Errorf("another task's answer holds %q: %v", c, o)
			}
		}
	}
}

// evalString runs expr in the worker and answers its string value.
func evalString(t *testing.T, e *harness.Env, expr string) string {
	t.Helper()
	var s string
	e.Eval(t, expr, &s)
	return s
}

// bookmarkNode reads a bookmark from Chrome itself; ok false when it is gone.
func bookmarkNode(t *testing.T, e *harness.Env, id string) (node map[string]any, ok bool) {
	t.Helper()
	var nodes []map[string]any
	e.Eval(t, fmt.Sprintf(`chrome.bookmarks.get(%q).catch(() => [])`, id), &nodes)
	if len(nodes) == 0 {
		return nil, false
	}
	return nodes[0], true
}

// visitJS opens url in a tab the user's way (not AgentTab's), waits for it
// to load, and answers the tab's id.
const visitJS = `(async (url) => {
  const t = await chrome.tabs.create({url, active: false});
  for (let i = 0; i < 200; i++) {
    const x = await chrome.tabs.get(t.id);
    if (x.status === "complete" && x.url === url) return t.id;
    await new Promise(r => setTimeout(r, 50));
  }
  throw new Error("the tab did not load " + url);
})`

func visit(t *testing.T, e *harness.Env, url string) int {
	t.Helper()
	var id int
	e.Eval(t, fmt.Sprintf("%s(%q)", visitJS, url), &id)
	return id
}

// Bookmarks end to end: reads find what Chrome holds; create, update and
// move answer ids and state only and Chrome shows the change; removal is
// staged even with YOLO mode on, shown in the real popup with its title and
// URL, and removed only by browser_commit after approval; a bookmark
// changed after approval, a non-empty folder and a top-level folder are
// refused, not_started, nothing removed; while paused every operation is
// refused. No canary leaves the agent's answers.
func TestProfileBookmarks(t *testing.T) {
	e := harness.Start(t)
	base := e.ServePages(map[string]string{"/": page("Home")})
	a := newProfAgent(t, e)

	// Seed through chrome.bookmarks: a folder in Other bookmarks holding two
	// bookmarks, and an empty-to-be folder.
	folder := evalString(t, e, fmt.Sprintf(`chrome.bookmarks.create({parentId: "2", title: %q}).then(n => n.id)`, canaryFolder))
	markURL := base + canaryBmPath
	mark := evalString(t, e, fmt.Sprintf(`chrome.bookmarks.create({parentId: %q, title: %q, url: %q}).then(n => n.id)`, folder, canaryTitle, markURL))
	gone := evalString(t, e, fmt.Sprintf(`chrome.bookmarks.create({parentId: %q, title: %q, url: %q}).then(n => n.id)`, folder, canaryGone, base+"/"+canaryGone))

	found := itemsOf(t, a.prof(t, protocol.ProfileBookmarksSearch, map[string]any{"query": canaryTitle}))
	if it := itemWith(t, found, "id", mark); it["url"] != markURL || it["parent_id"] != folder || it["kind"] != "bookmark" {
		t.Fatalf("bookmarks_search found %v", it)
	}
	tree := itemsOf(t, a.prof(t, protocol.ProfileBookmarksTree, nil))
	itemWith(t, tree, "title", canaryFolder)
	itemWith(t, tree, "id", gone)
	sub := itemsOf(t, a.prof(t, protocol.ProfileBookmarksTree, map[string]any{"id": folder}))
	if len(sub) != 3 || sub[0]["id"] != folder {
		t.Fatalf("bookmarks_tree of the folder: %v, want the folder and its two bookmarks", sub)
	}

	// Create, update, move: ids and state only, the change read back from Chrome.
	made := a.prof(t, protocol.ProfileBookmarksCreate, map[string]any{"parent_id": folder, "title": canaryMade, "url": base + "/made"})
	ids, _ := made["ids"].([]any)
	if len(ids) != 1 || made["state"] != "created" || strings.Contains(fmt.Sprint(made), canaryMade) {
		t.Fatalf("bookmarks_create answered %v, want one id and state created only", made)
	}
	madeID := ids[0].(string)
	if n, ok := bookmarkNode(t, e, madeID); !ok || n["title"] != canaryMade || n["parentId"] != folder {
		t.Fatalf("Chrome holds %v after bookmarks_create", n)
	}
	upd := a.prof(t, protocol.ProfileBookmarksUpdate, map[string]any{"id": madeID, "title": canaryEdit})
	if upd["state"] != "updated" || strings.Contains(fmt.Sprint(upd), canaryEdit) {
		t.Fatalf("bookmarks_update answered %v", upd)
	}
	if n, _ := bookmarkNode(t, e, madeID); n["title"] != canaryEdit {
		t.Fatalf("Chrome holds %v after bookmarks_update", n)
	}
	if mv := a.prof(t, protocol.ProfileBookmarksMove, map[string]any{"id": madeID, "parent_id": "1"}); mv["state"] != "moved" {
		t.Fatalf("bookmarks_move answered %v", mv)
	}
	if n, _ := bookmarkNode(t, e, madeID); n["parentId"] != "1" {
		t.Fatalf("Chrome holds %v after bookmarks_move to the bookmarks bar", n)
	}

	// Removal with YOLO mode on (the default) stages; nothing is removed.
	if !yoloOn(t, e) {
		t.Fatal("YOLO mode is not on by default")
	}
	staged := a.prof(t, protocol.ProfileBookmarksRemove, map[string]any{"id": mark})
	stage := stageOf(t, staged)
	if _, ok := bookmarkNode(t, e, mark); !ok {
		t.Fatal("bookmarks_remove removed the bookmark before review")
	}
	a.refused(t, protocol.MethodCommit, map[string]any{"stage": stage}, protocol.CodeStageNotApproved)
	popup := e.OpenExtensionPage(t, "popup.html")
	popup.WaitText(t, canaryTitle, 5*time.Second)
	if shown := popup.Text(t); !strings.Contains(shown, markURL) {
		t.Errorf("the popup's review does not show the bookmark's URL %s:\n%s", markURL, shown)
	}
	popup.Click(t, popupApprove)
	popup.WaitText(t, "approved", 5*time.Second)
	popup.Close()
	if _, ok := bookmarkNode(t, e, mark); !ok {
		t.Fatal("approval alone removed the bookmark")
	}
	// Another task cannot commit it, and learns nothing from trying.
	other := newProfAgent(t, e)
	otherRefusal := other.refused(t, protocol.MethodCommit, map[string]any{"stage": stage}, protocol.CodeStageNotFound)
	if res := a.ok(t, protocol.MethodCommit, map[string]any{"stage": stage}); res["effect"] != string(protocol.EffectBookmarkRemove) || res["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("browser_commit answered %v", res)
	}
	if _, ok := bookmarkNode(t, e, mark); ok {
		t.Fatal("the committed removal left the bookmark in Chrome")
	}

	// Changed after approval: refused at commit, not removed.
	stage = stageOf(t, a.prof(t, protocol.ProfileBookmarksRemove, map[string]any{"id": gone}))
	reviewFirstStage(t, e, popupApprove)
	e.Eval(t, fmt.Sprintf(`chrome.bookmarks.update(%q, {title: %q})`, gone, canaryGone+" renamed"), nil)
	a.refused(t, protocol.MethodCommit, map[string]any{"stage": stage}, protocol.CodeStageTargetChanged)
	if n, ok := bookmarkNode(t, e, gone); !ok || n["title"] != canaryGone+" renamed" {
		t.Fatalf("a bookmark changed after approval: Chrome holds %v", n)
	}

	// A non-empty folder, the bookmarks bar, the invisible root: refused,
	// not_started, nothing staged or changed.
	rootBefore := rootFolders(t, e)
	a.profRefused(t, protocol.ProfileBookmarksRemove, map[string]any{"id": folder}, protocol.CodeBookmarkFolderNotEmpty)
	a.profRefused(t, protocol.ProfileBookmarksRemove, map[string]any{"id": "1"}, protocol.CodeBookmarkProtected)
	a.profRefused(t, protocol.ProfileBookmarksUpdate, map[string]any{"id": "1", "title": "Renamed bar"}, protocol.CodeBookmarkProtected)
	a.profRefused(t, protocol.ProfileBookmarksMove, map[string]any{"id": "2", "parent_id": "1"}, protocol.CodeBookmarkProtected)
	a.profRefused(t, protocol.ProfileBookmarksCreate, map[string]any{"parent_id": "0", "title": "At the root"}, protocol.CodeBookmarkProtected)
	if _, ok := bookmarkNode(t, e, folder); !ok {
		t.Fatal("the non-empty folder is gone")
	}
	if n, _ := bookmarkNode(t, e, "1"); n["parentId"] != "0" || n["title"] == "Renamed bar" {
		t.Fatalf("the bookmarks bar changed: %v", n)
	}
	if n := rootFolders(t, e); n != rootBefore {
		t.Fatalf("the root has %d folders, had %d", n, rootBefore)
	}
	if n := stagesListed(t, e); n != 0 {
		t.Fatalf("the popup lists %d stages after refusals, want 0", n)
	}

	// Paused: every operation is refused, not_started.
	agenttab(t, e, "pause")
	var before int
	e.Eval(t, `chrome.bookmarks.search({}).then(r => r.length)`, &before)
	for op, args := range map[protocol.ProfileOp]map[string]any{
		protocol.ProfileBookmarksSearch: {"query": canarySearch},
		protocol.ProfileBookmarksTree:   nil,
		protocol.ProfileBookmarksCreate: {"parent_id": folder, "title": "while paused"},
		protocol.ProfileBookmarksUpdate: {"id": gone, "title": "while paused"},
		protocol.ProfileBookmarksMove:   {"id": gone, "parent_id": "1"},
		protocol.ProfileBookmarksRemove: {"id": gone},
		protocol.ProfileHistorySearch:   {"query": canarySearch},
		protocol.ProfileSessionsList:    nil,
		protocol.ProfileSessionsRestore: {"id": "1"},
		protocol.ProfileDownloadsSearch: nil,
		protocol.ProfileDownloadsCancel: {"id": "1"},
		protocol.ProfileDownloadsPause:  {"id": "1"},
		protocol.ProfileDownloadsResume: {"id": "1"},
	} {
		a.profRefused(t, op, args, protocol.CodePaused)
	}
	agenttab(t, e, "resume")
	var after int
	e.Eval(t, `chrome.bookmarks.search({}).then(r => r.length)`, &after)
	if n, _ := bookmarkNode(t, e, gone); after != before || n["parentId"] != folder || n["title"] != canaryGone+" renamed" {
		t.Fatalf("paused operations changed the bookmarks: %d → %d, %v", before, after, n)
	}
	if n := stagesListed(t, e); n != 0 {
		t.Fatalf("a paused bookmarks_remove staged: the popup lists %d stages", n)
	}
	otherTabs := other.ok(t, protocol.MethodTabs, nil)
	noCanaryAnywhere(t, e, otherRefusal, otherTabs)
}

// rootFolders counts the invisible root's folders. (Chromium 156 answers 2
// on a fresh profile, Bookmarks bar and Other bookmarks: Mobile bookmarks
// is hidden while it is empty.)
func rootFolders(t *testing.T, e *harness.Env) int {
	t.Helper()
	var n int
	e.Eval(t, `chrome.bookmarks.getChildren("0").then(c => c.length)`, &n)
	return n
}

// stageOf answers a bookmarks_remove's stage id, checking it is staged and
// carries no title or URL.
func stageOf(t *testing.T, res map[string]any) string {
	t.Helper()
	st, _ := res["stage"].(map[string]any)
	id, _ := st["stage"].(string)
	if res["outcome"] != string(protocol.OutcomeStaged) || !strings.HasPrefix(id, "stg_") || st["effect"] != string(protocol.EffectBookmarkRemove) {
		t.Fatalf("bookmarks_remove answered %v, want outcome staged with a bookmark_remove stage", res)
	}
	for _, c := range profileCanaries {
		if strings.Contains(fmt.Sprint(res), c) {
			t.Fatalf("bookmarks_remove's answer holds %q: %v", c, res)
		}
	}
	return id
}

// stagesListed counts the stages the popup offers for review.
func stagesListed(t *testing.T, e *harness.Env) int {
	t.Helper()
	popup := e.OpenExtensionPage(t, "popup.html")
	defer popup.Close()
	popup.WaitText(t, "YOLO mode", 5*time.Second)
	time.Sleep(200 * time.Millisecond)
	return popup.Count(t, popupApprove)
}

// slowDownload serves a download that sends its first bytes and then
// holds, so it stays in progress until the test ends; /file is a whole one.
type slowDownload struct{ done chan struct{} }

func (d slowDownload) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case canaryDownPath:
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+canaryFile+`.bin"`)
		w.Write([]byte(strings.Repeat("x", 4096)))
	case "/slow":
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="slow.bin"`)
		w.Header().Set("Content-Length", strconv.Itoa(1<<22))
		w.Write([]byte(strings.Repeat("y", 1<<16)))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-d.done:
		}
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		title := strings.TrimPrefix(r.URL.Path, "/")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>", title, title)
	}
}

// downloadState reads a download from Chrome itself.
func downloadState(t *testing.T, e *harness.Env, id string) map[string]any {
	t.Helper()
	var items []map[string]any
	e.Eval(t, fmt.Sprintf(`chrome.downloads.search({id: %s})`, id), &items)
	if len(items) != 1 {
		t.Fatalf("Chrome has %d downloads with id %s", len(items), id)
	}
	return items[0]
}

// History, sessions and downloads end to end against visits, closed tabs
// and windows, and downloads made in Chromium: history_search finds a
// visit by text; sessions_list lists a closed tab and sessions_restore
// reopens it as an inactive tab of the task, in its group, which
// browser_finish {close_tabs: true} closes; a closed window of 26 pages is
// refused with nothing opened; downloads are found, paused, resumed and
// cancelled. No canary leaves the agent's answers.
func TestProfileHistorySessionsDownloads(t *testing.T) {
	e := harness.Start(t)
	fx := slowDownload{done: make(chan struct{})}
	base := e.Serve(fx)
	t.Cleanup(func() { close(fx.done) })
	a := newProfAgent(t, e)

	// Visits and a closed tab, made as the user makes them.
	visitTab := visit(t, e, base+"/"+canaryVisit)
	closedURL := base + "/" + canaryClosed
	closedTab := visit(t, e, closedURL)
	e.Eval(t, fmt.Sprintf(`chrome.tabs.remove([%d, %d])`, visitTab, closedTab), nil)

	hist := itemsOf(t, a.prof(t, protocol.ProfileHistorySearch, map[string]any{"query": canaryVisit}))
	if it := itemWith(t, hist, "url", base+"/"+canaryVisit); it["kind"] != "history" || it["title"] != canaryVisit {
		t.Fatalf("history_search found %v", it)
	}
	if none := itemsOf(t, a.prof(t, protocol.ProfileHistorySearch, map[string]any{"query": canarySearch})); len(none) != 0 {
		t.Fatalf("history_search of a text never visited found %v", none)
	}

	// The task has a tab of its own, so its group exists.
	own := handleOf(t, a.ok(t, protocol.MethodOpen, map[string]any{"url": base + "/own"}))
	ownGroup := chromeTabByURL(t, e, base+"/own").GroupID
	sessions := itemsOf(t, a.prof(t, protocol.ProfileSessionsList, nil))
	closed := itemWith(t, sessions, "url", closedURL)
	tabsBefore := len(e.ChromeTabs(t))
	restored := a.prof(t, protocol.ProfileSessionsRestore, map[string]any{"id": closed["id"]})
	handles, _ := restored["tabs"].([]any)
	if len(handles) != 1 || restored["outcome"] != string(protocol.OutcomeConfirmed) {
		t.Fatalf("sessions_restore answered %v, want one tab", restored)
	}
	if n := len(e.ChromeTabs(t)); n != tabsBefore+1 {
		t.Fatalf("sessions_restore: Chrome has %d tabs, was %d", n, tabsBefore)
	}
	rt := chromeTabByURL(t, e, closedURL)
	if rt.Active || rt.GroupID == -1 || rt.GroupID != ownGroup {
		t.Fatalf("the restored tab %+v: want inactive, in the task's group %d", rt, ownGroup)
	}
	listedTabs := listedOf(t, a.ok(t, protocol.MethodTabs, nil))
	if !slices.Contains(listedTabs, handles[0].(string)) || !slices.Contains(listedTabs, own) {
		t.Fatalf("browser_tabs lists %v, want the restored tab %v and %s", listedTabs, handles[0], own)
	}

	// A closed window of 26 pages: over the bound, refused, nothing opened.
	var urls []string
	for i := range protocol.MaxRestoreURLs + 1 {
		urls = append(urls, fmt.Sprintf("%s/w%d", base, i))
	}
	js, _ := json.Marshal(urls)
	var winID int
	e.Eval(t, fmt.Sprintf(`chrome.windows.create({url: %s, focused: false}).then(w => w.id)`, js), &winID)
	e.WaitFor(t, "the window's pages to load", 20*time.Second, func() bool {
		var loading int
		e.Eval(t, fmt.Sprintf(`chrome.tabs.query({windowId: %d}).then(ts => ts.filter(t => t.status !== "complete").length)`, winID), &loading)
		return loading == 0
	})
	e.Eval(t, fmt.Sprintf(`chrome.windows.remove(%d)`, winID), nil)
	sessions = itemsOf(t, a.prof(t, protocol.ProfileSessionsList, nil))
	var window map[string]any
	for _, it := range sessions {
		if it["kind"] == "window" {
			window = it
		}
	}
	if window == nil {
		t.Fatalf("sessions_list lists no closed window: %v", sessions)
	}
	tabsBefore = len(e.ChromeTabs(t))
	a.profRefused(t, protocol.ProfileSessionsRestore, map[string]any{"id": window["id"]}, protocol.CodeInvalidParams)
	if n := len(e.ChromeTabs(t)); n != tabsBefore {
		t.Fatalf("a refused restore changed Chrome's tabs: %d → %d", tabsBefore, n)
	}

	// Downloads: one whole, one held in progress.
	e.Eval(t, fmt.Sprintf(`chrome.downloads.download({url: %q})`, base+canaryDownPath), nil)
	var slowID int
	e.Eval(t, fmt.Sprintf(`chrome.downloads.download({url: %q})`, base+"/slow"), &slowID)
	e.WaitFor(t, "the whole download to complete", 10*time.Second, func() bool {
		var n int
		e.Eval(t, fmt.Sprintf(`chrome.downloads.search({query: [%q], state: "complete"}).then(r => r.length)`, canaryFile), &n)
		return n == 1
	})
	e.WaitFor(t, "the slow download to receive its first bytes", 10*time.Second, func() bool {
		return downloadState(t, e, strconv.Itoa(slowID))["bytesReceived"].(float64) > 0
	})
	down := itemsOf(t, a.prof(t, protocol.ProfileDownloadsSearch, map[string]any{"query": canaryFile}))
	if len(down) != 1 || down[0]["state"] != "complete" || !strings.Contains(fmt.Sprint(down[0]["filename"]), canaryFile) {
		t.Fatalf("downloads_search found %v", down)
	}
	slow := strconv.Itoa(slowID)
	if res := a.prof(t, protocol.ProfileDownloadsPause, map[string]any{"id": slow}); res["state"] != "paused" {
		t.Fatalf("downloads_pause answered %v", res)
	}
	if d := downloadState(t, e, slow); d["paused"] != true || d["state"] != "in_progress" {
		t.Fatalf("Chrome's download after pause: %v", d)
	}
	if res := a.prof(t, protocol.ProfileDownloadsResume, map[string]any{"id": slow}); res["state"] != "in_progress" {
		t.Fatalf("downloads_resume answered %v", res)
	}
	if d := downloadState(t, e, slow); d["paused"] != false || d["state"] != "in_progress" {
		t.Fatalf("Chrome's download after resume: %v", d)
	}
	if res := a.prof(t, protocol.ProfileDownloadsCancel, map[string]any{"id": slow}); res["state"] != "interrupted" {
		t.Fatalf("downloads_cancel answered %v", res)
	}
	if d := downloadState(t, e, slow); d["state"] != "interrupted" {
		t.Fatalf("Chrome's download after cancel: %v", d)
	}
	a.profRefused(t, protocol.ProfileDownloadsPause, map[string]any{"id": "987654"}, protocol.CodeProfileNotFound)

	// browser_finish {close_tabs: true} closes the restored tab with the
	// task's own.
	fin := a.ok(t, protocol.MethodFinish, map[string]any{"close_tabs": true})
	if fin["closed"] != float64(2) {
		t.Fatalf("browser_finish closed %v tabs, want 2: %v", fin["closed"], fin)
	}
	for _, tab := range e.ChromeTabs(t) {
		if tab.URL == closedURL || tab.URL == base+"/own" {
			t.Fatalf("browser_finish left %s open", tab.URL)
		}
	}
	other := newProfAgent(t, e)
	noCanaryAnywhere(t, e, other.ok(t, protocol.MethodTabs, nil))
}

// listedOf answers the handles browser_tabs lists.
func listedOf(t *testing.T, res map[string]any) []string {
	t.Helper()
	var out []string
	for _, tab := range listed(t, res) {
		h, _ := tab["tab"].(string)
		out = append(out, h)
	}
	return out
}

// Under managed origin lists sessions_restore is refused before anything
// opens (origin_policy_unverifiable); sessions_list still answers.
func TestProfileRestoreUnderOriginLists(t *testing.T) {
	e := harness.Start(t, harness.WithPolicy(`{"origins":{"allowed":["http://127.0.0.1"]}}`))
	base := e.ServePages(map[string]string{"/closed": page(canaryClosed)})
	a := newProfAgent(t, e)
	id := visit(t, e, base+"/closed")
	e.Eval(t, fmt.Sprintf(`chrome.tabs.remove(%d)`, id), nil)
	closed := itemWith(t, itemsOf(t, a.prof(t, protocol.ProfileSessionsList, nil)), "url", base+"/closed")
	before := len(e.ChromeTabs(t))
	a.profRefused(t, protocol.ProfileSessionsRestore, map[string]any{"id": closed["id"]}, protocol.CodeOriginPolicyUnverifiable)
	if n := len(e.ChromeTabs(t)); n != before {
		t.Fatalf("a refused restore changed Chrome's tabs: %d → %d", before, n)
	}
	noCanaryAnywhere(t, e)
}
