package host

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// navigates moves a tab of the fake to its next page revision, as a
// committed navigation does in Chrome, and reports it as the extension
// does (watch-revisions.ts: the event "revision").
func (f *fakeExtension) navigates(tabID int) int64 {
	f.mu.Lock()
	tab := f.tabs[tabID]
	tab.Revision++
	rev := tab.Revision
	f.mu.Unlock()
	f.send(protocol.NativeEvent{Type: protocol.NativeTypeEvent, Event: protocol.EventRevision,
		Params: protocol.RevisionNotice{TabID: tabID, Revision: rev}})
	return rev
}

// onlyTab is the Chrome id of the fake's one tab.
func (f *fakeExtension) onlyTab(t *testing.T) int {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.tabs) != 1 {
		t.Fatalf("the fake holds %d tabs, want 1", len(f.tabs))
	}
	for id := range f.tabs {
		return id
	}
	return 0
}

// knowsRevision waits until the host has applied the extension's event.
func knowsRevision(t *testing.T, h *Host, chromeTabID int, rev int64) {
	t.Helper()
	waitFor(t, func() bool {
		got, err := h.store.RevisionFloor(context.Background(), chromeTabID)
		return err == nil && got == rev
	})
}

// Spec 001: "The host and extension reject actions when ownership,
// document revision, or ref epoch no longer matches." After a navigation
// the host itself refuses the revision the tab left, and one the tab never
// had, before it records the idempotency key or sends anything.
func TestHostRefusesRevisionsTheTabIsNotAt(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	c, tab := openOne(t, r)
	chromeID := r.ext.onlyTab(t)
	now := r.ext.navigates(chromeID)
	knowsRevision(t, h, chromeID, now)

	const key = "0190b2a0-0000-7000-8000-0000000000c1"
	click := []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}
	for _, tc := range []struct {
		name string
		rev  int64
	}{{"the revision before the navigation", now - 1}, {"a revision the tab never had", now + 1}} {
		t.Run(tc.name, func(t *testing.T) {
			e := callErr(t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: tc.rev, Actions: click, IdempotencyKey: key})
			if e.Code != protocol.CodeStaleRevision || e.Outcome != protocol.OutcomeNotStarted || e.Recovery != protocol.ErrorCatalogue[protocol.CodeStaleRevision].Recovery {
				t.Fatalf("got %+v, want stale_revision, not_started, with its recovery", e)
			}
		})
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 0 {
		t.Fatalf("a refused batch reached the extension: %v", r.ext.seen())
	}
	audit, _ := os.ReadFile(r.dir.Audit())
	if n := strings.Count(string(audit), `"error_code":"stale_revision"`); n != 2 {
		t.Errorf("%d audit records of stale_revision, want 2:\n%s", n, audit)
	}
	// The refusals spent no key: the same key now runs at the current
	// revision (a recorded key would answer idempotency_key_conflict).
	res := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: now, Actions: click, IdempotencyKey: key})
	if res.Replay || res.PageRevision != now || count(r.ext.seen(), protocol.NativeAct) != 1 {
		t.Fatalf("the current revision did not run: %+v, extension saw %v", res, r.ext.seen())
	}
}

// A key that already completed replays its answer even though the tab
// has moved on since: the host's revision check comes after the
// idempotency record, never instead of it (spec 000: "A completed record
// returns its cached result").
func TestACompletedKeyReplaysAfterTheTabMovedOn(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	nav := protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, IdempotencyKey: "0190b2a0-0000-7000-8000-0000000000c2",
		Actions: []protocol.Step{{Kind: protocol.StepNavigate, URL: "https://example.com/next"}}}
	first := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, nav)
	if first.PageRevision != 2 {
		t.Fatalf("the navigation did not advance the revision: %+v", first)
	}
	again := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, nav)
	if !again.Replay || again.PageRevision != first.PageRevision || count(r.ext.seen(), protocol.NativeAct) != 1 {
		t.Fatalf("the retry was not a replay: %+v, extension saw %v", again, r.ext.seen())
	}
}

// Chrome reuses tab ids in its next session: a tab granted after a browser
// restart starts its own revisions at 1, whatever an earlier tab of the
// same id reached, and the host's check accepts them.
func TestAReusedChromeTabIDStartsItsOwnRevisions(t *testing.T) {
	dir := tempStateDir(t)
	var h *Host
	r := startRig(t, withDir(dir), withHost(&h))
	_, _ = openOne(t, r)
	old := r.ext.onlyTab(t)
	for range 4 {
		r.ext.navigates(old)
	}
	knowsRevision(t, h, old, 5)
	r.stop()

	// The browser restarted: a new extension, whose first tab gets the
	// same id; reconciliation revoked the old tab.
	r = startRig(t, withDir(dir))
	c, tab := openOne(t, r)
	if id := r.ext.onlyTab(t); id != old {
		t.Fatalf("the fake gave the new tab id %d, not the reused %d", id, old)
	}
	res := rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 1, Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}})
	if res.PageRevision != 1 {
		t.Fatalf("receipt %+v", res)
	}
}

// The host's view may lag the extension's (a revision event still on its
// way), but a revision an answer gave the agent is never refused:
// browser_tabs reports the tab as the extension has it, and that revision
// runs.
func TestARevisionTheAgentWasToldIsNeverRefused(t *testing.T) {
	r := startRig(t)
	c, tab := openOne(t, r)
	chromeID := r.ext.onlyTab(t)
	r.ext.mu.Lock()
	r.ext.tabs[chromeID].Revision = 3 // navigated; the events have not arrived
	r.ext.mu.Unlock()
	listed := rpc[protocol.TabsResult](t, c.Client, protocol.MethodTabs, protocol.TabsParams{Tab: tab})
	if len(listed.Tabs) != 1 || listed.Tabs[0].PageRevision != 3 {
		t.Fatalf("browser_tabs: %+v", listed)
	}
	rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, protocol.ActParams{Tab: tab, ExpectedPageRevision: 3, Actions: []protocol.Step{{Kind: protocol.StepClick, Ref: "e1"}}})
}
