package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// reconcileTimeout bounds the extension's check of every owned tab.
const reconcileTimeout = 30 * time.Second

// resumableFor is how long a task whose connection closed without
// browser_finish stays resumable (protocol.DetachedTaskResumableMs).
const resumableFor = protocol.DetachedTaskResumableMs * time.Millisecond

// reconcile sends the host's view of ownership to the extension, which
// keeps only what Chrome confirms; everything else is revoked here too.
// Detached tasks past their resumable window are finished first (a
// running host finishes them as connections close: detached.go).
func (h *Host) reconcile(ctx context.Context) error {
	expired, err := h.store.FinishDetachedBefore(ctx, h.now().Add(-resumableFor))
	if err != nil {
		return fmt.Errorf("reconcile: finishing expired tasks: %w", err)
	}
	for _, id := range expired {
		h.forgetTask(ctx, id)
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
	for _, f := range res.Found {
		if err := h.recordFound(ctx, active, f); err != nil {
			return err
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

// recordFound records a tab the extension granted to a listed task while
// the host that asked for it died before recording it (a SIGKILL between
// Chrome grouping a new tab and the host's AddOwnedTab). The task owns what
// it opened or the user let it adopt (spec 001's first and third paths;
// Chrome still shows the tab in the task's group), so browser_tabs lists
// it and close_tabs closes it (an adopted one never). Nothing is
// replayed: the open's idempotency key stays started and still answers
// unknown, whose recovery sends the agent to browser_tabs (spec 000: "a
// durable started record after a crash returns unknown and is never
// replayed"). A tab the host cannot record stays out of the host's view;
// the extension releases it at finish.
func (h *Host) recordFound(ctx context.Context, listed map[string]bool, f protocol.FoundTab) error {
	if !listed[f.TaskID] {
		h.log.Printf("reconcile: the extension found tab %d for task %s, which the host did not list; not recorded", f.Tab.TabID, f.TaskID)
		return nil
	}
	tab, err := h.store.AddOwnedTab(ctx, store.OwnedTab{
		TaskID: f.TaskID, ChromeTabID: f.Tab.TabID, WindowID: f.Tab.WindowID, GroupID: f.Tab.GroupID,
		Source: f.Source, CreatedAt: h.now(),
	})
	if errors.Is(err, store.ErrAlreadyOwned) {
		h.log.Printf("reconcile: tab %d found for task %s: %v", f.Tab.TabID, f.TaskID, err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("reconcile: recording tab %d found for task %s: %w", f.Tab.TabID, f.TaskID, err)
	}
	h.raiseFloor(ctx, f.Tab.TabID, f.Tab.Revision)
	h.log.Printf("task %s took %s: the extension granted it (%s), and the host that asked died before recording it", f.TaskID, tab.Handle, f.Source)
	return nil
}
