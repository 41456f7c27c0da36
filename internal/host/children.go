package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// takeChild records a tab the extension took in as the child of an owned
// opener (spec 001's second ownership path). The host checks the opener
// itself: the grant follows the opener's task in the host's own record,
// never the task the event names alone.
func (h *Host) takeChild(ctx context.Context, n protocol.ChildNotice) error {
	opener, err := h.store.OwnedTabByChromeID(ctx, n.OpenerTabID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && opener.TaskID != n.TaskID) {
		// Reconciliation after the next handshake drops the extension's
		// record of a child the host does not grant.
		return fmt.Errorf("child tab %d: its opener %d is not owned by %s", n.Tab.TabID, n.OpenerTabID, n.TaskID)
	}
	if err != nil {
		return fmt.Errorf("child tab %d: %w", n.Tab.TabID, err)
	}
	tab, err := h.store.AddOwnedTab(ctx, store.OwnedTab{
		TaskID: opener.TaskID, ChromeTabID: n.Tab.TabID, WindowID: n.Tab.WindowID, GroupID: n.Tab.GroupID,
		Source: store.SourceChild, CreatedAt: h.now(),
	})
	if err != nil {
		return fmt.Errorf("child tab %d: %w", n.Tab.TabID, err)
	}
	h.raiseFloor(ctx, n.Tab.TabID, n.Tab.Revision)
	h.log.Printf("task %s took %s, opened by %s", tab.TaskID, tab.Handle, opener.Handle)
	return nil
}

// attachPopups puts the popups the extension reports on the receipts of
// the steps that opened them, with the handles the task uses. The child
// events came first on the same port, so owned popups are recorded.
func (h *Host) attachPopups(ctx context.Context, taskID string, steps []protocol.StepReceipt, popups []protocol.ExtPopup) {
	for _, p := range popups {
		if p.Step < 0 || p.Step >= len(steps) {
			h.log.Printf("a popup for step %d of a %d-step batch ignored", p.Step, len(steps))
			continue
		}
		out := protocol.Popup{URL: p.URL, Error: p.Error}
		if p.Owned {
			tab, err := h.store.OwnedTabByChromeID(ctx, p.TabID)
			if err != nil || tab.TaskID != taskID {
				out.Error = protocol.FailAs(protocol.CodeChildNotOwned, protocol.OutcomeDispatched,
					"the page opened a tab, but the task does not hold it (it was closed, moved, or never recorded)")
			} else {
				out.Tab = tab.Handle
			}
		}
		steps[p.Step].Popups = append(steps[p.Step].Popups, out)
	}
}
