package host

import (
	"context"
	"errors"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

const tabsTimeout = 10 * time.Second

// tabs lists the calling task's owned tabs as Chrome has them now. Tabs the
// extension finds closed, ungrouped or moved out are revoked on the way.
func (h *Host) tabs(ctx context.Context, c *call) (any, error) {
	var p protocol.TabsParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return nil, perr
	}
	defer unlock()

	var owned []store.OwnedTab
	if p.Tab != "" {
		tab, perr := h.ownedTab(ctx, task.ID, p.Tab)
		if perr != nil {
			return nil, perr
		}
		owned = []store.OwnedTab{tab}
	} else {
		var err error
		if owned, err = h.store.OwnedTabs(ctx, task.ID); err != nil {
			return nil, internalError("listing tabs", err)
		}
	}
	res := protocol.TabsResult{Task: protocol.TaskRef{ID: task.ID, Label: task.Label}, Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}
	if len(owned) == 0 {
		c.outcome = res.Outcome
		return res, nil
	}
	ids := make([]int, len(owned))
	byChromeID := map[int]store.OwnedTab{}
	for i, t := range owned {
		ids[i] = t.ChromeTabID
		byChromeID[t.ChromeTabID] = t
	}
	var ext protocol.ExtTabsResult
	if perr := h.extCall(ctx, tabsTimeout, protocol.NativeTabs, protocol.ExtTabsParams{TaskID: task.ID, TabIDs: ids}, &ext, protocol.OutcomeNotStarted); perr != nil {
		return nil, perr
	}
	for _, r := range ext.Revoked {
		if err := h.revoke(ctx, r.TabID, r.Reason); err != nil {
			return nil, internalError("revoking", err)
		}
	}
	for _, t := range ext.Tabs {
		st, ok := byChromeID[t.TabID]
		if !ok {
			continue // never list a tab the host did not ask about
		}
		h.raiseFloor(ctx, t.TabID, t.Revision)
		res.Tabs = append(res.Tabs, tabInfo(st.Handle, t))
	}
	if p.Tab != "" && len(res.Tabs) == 0 {
		return nil, notOwned(p.Tab)
	}
	c.outcome = res.Outcome
	return res, nil
}

// ownedTab resolves a handle within the calling task only. A handle of
// another task, an unknown handle and a revoked tab all fail the same way,
// so a task learns nothing about tabs it does not own.
func (h *Host) ownedTab(ctx context.Context, taskID, handle string) (store.OwnedTab, *protocol.Error) {
	tab, err := h.store.TabByHandle(ctx, taskID, handle)
	if errors.Is(err, store.ErrNotFound) || (err == nil && tab.State != store.TabOwned) {
		return store.OwnedTab{}, notOwned(handle)
	}
	if err != nil {
		return store.OwnedTab{}, internalError("resolving the tab", err)
	}
	return tab, nil
}

func notOwned(handle string) *protocol.Error {
	return protocol.Fail(protocol.CodeNotOwned,
		"this task does not own tab "+handle+" (it was closed, ungrouped, moved out of the task group, or never belonged to this task)")
}
