package host

import (
	"context"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// reconcileTimeout bounds the extension's check of every owned tab.
const reconcileTimeout = 30 * time.Second

// resumableFor is how long a task whose connection closed without
// browser_finish stays resumable (DESIGN.md "Tasks").
const resumableFor = 24 * time.Hour

// reconcile sends the host's view of ownership to the extension, which
// keeps only what Chrome confirms; everything else is revoked here too.
// Detached tasks past their resumable window are finished first.
func (h *Host) reconcile(ctx context.Context) error {
	if _, err := h.store.FinishDetachedBefore(ctx, h.now().Add(-resumableFor)); err != nil {
		return fmt.Errorf("reconcile: finishing expired tasks: %w", err)
	}
	tasks, err := h.store.ActiveTasks(ctx)
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	active := map[string]bool{}
	for _, t := range tasks {
		active[t.ID] = true
	}
	h.sweepBlobs(active)
	var params protocol.ReconcileParams
	params.Tasks = []protocol.ReconcileTask{}
	for _, t := range tasks {
		tabs, err := h.store.OwnedTabs(ctx, t.ID)
		if err != nil {
			return fmt.Errorf("reconcile: %w", err)
		}
		rt := protocol.ReconcileTask{Task: look(t), Tabs: []protocol.ReconcileTab{}}
		for _, tab := range tabs {
			floor, err := h.store.RevisionFloor(ctx, tab.ChromeTabID)
			if err != nil {
				return fmt.Errorf("reconcile: %w", err)
			}
			rt.Tabs = append(rt.Tabs, protocol.ReconcileTab{TabID: tab.ChromeTabID, GroupID: tab.GroupID, RevisionFloor: floor})
		}
		params.Tasks = append(params.Tasks, rt)
	}
	cctx, cancel := context.WithTimeout(ctx, reconcileTimeout)
	defer cancel()
	var res protocol.ReconcileResult
	if perr := h.link.call(cctx, protocol.NativeReconcile, params, &res, protocol.OutcomeUnknown); perr != nil {
		return fmt.Errorf("reconcile: %w", perr)
	}
	kept := map[int]bool{}
	for _, t := range res.Kept {
		kept[t.TabID] = true
		if err := h.store.SetRevisionFloor(ctx, t.TabID, t.Revision); err != nil {
			return fmt.Errorf("reconcile: %w", err)
		}
	}
	for _, r := range res.Revoked {
		if err := h.revoke(ctx, r.TabID, r.Reason); err != nil {
			return err
		}
	}
	// A tab the host listed that the extension neither kept nor revoked is
	// inconsistent ownership: revoke it (spec 001).
	for _, rt := range params.Tasks {
		for _, tab := range rt.Tabs {
			if !kept[tab.TabID] {
				if err := h.revoke(ctx, tab.TabID, protocol.RevokeInconsistent); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
