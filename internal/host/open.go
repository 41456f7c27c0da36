package host

import (
	"context"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// openLoadWait is how long browser_open waits for the page to finish
// loading before it answers with loading=true; the tab is usable either way.
const openLoadWait = 10 * time.Second

// openTimeout bounds the extension's whole open: create, group, load wait.
const openTimeout = openLoadWait + 20*time.Second

func (h *Host) open(ctx context.Context, c *call) (any, error) {
	var p protocol.OpenParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := oneOf("mode", p.Mode, protocol.OpenModes); perr != nil {
		return nil, perr
	}
	if p.Mode == protocol.OpenModeAdoptActive {
		return h.adopt(ctx, c, p)
	}
	if p.TimeoutMs != nil {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"timeout_ms is only for mode adopt_active", "Omit timeout_ms when opening a page.")
	}
	target, perr := checkURL(p.URL)
	if perr != nil {
		return nil, perr
	}
	if target, perr = h.checkTarget(target); perr != nil {
		return nil, perr
	}
	if perr := optionalOneOf("placement", &p.Placement, protocol.PlacementTab, protocol.Placements); perr != nil {
		return nil, perr
	}

	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodOpen, key, p, openFields,
		func(task store.Task) (protocol.OpenResult, *protocol.Error) {
			return h.openTab(ctx, task, target, p.Placement)
		})
}

func openFields(r *protocol.OpenResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome }

func (h *Host) openTab(ctx context.Context, task store.Task, target string, placement protocol.Placement) (protocol.OpenResult, *protocol.Error) {
	if placement == protocol.PlacementNewWindow {
		owned, err := h.store.OwnedTabs(ctx, task.ID)
		if err != nil {
			return protocol.OpenResult{}, internalError("listing tabs", err)
		}
		if len(owned) > 0 {
			return protocol.OpenResult{}, protocol.Fail(protocol.CodeNewWindowNotEligible,
				"placement new_window is only for the first tab of a task that owns no tabs")
		}
	}
	var ext protocol.ExtOpenResult
	params := protocol.ExtOpenParams{Task: look(task), URL: target, Placement: placement, LoadWaitMs: int(openLoadWait / time.Millisecond)}
	if perr := h.extCall(ctx, openTimeout, protocol.NativeOpen, params, &ext, protocol.OutcomeUnknown); perr != nil {
		return protocol.OpenResult{}, perr
	}
	return h.recordOpened(ctx, task, ext.Tab, store.SourceCreated, placement)
}

// recordOpened records a tab the extension grouped for the task and
// answers browser_open with it.
func (h *Host) recordOpened(ctx context.Context, task store.Task, ext protocol.ExtTab, source string, placement protocol.Placement) (protocol.OpenResult, *protocol.Error) {
	tab, err := h.store.AddOwnedTab(ctx, store.OwnedTab{
		TaskID: task.ID, ChromeTabID: ext.TabID, WindowID: ext.WindowID, GroupID: ext.GroupID,
		Source: source, CreatedAt: h.now(),
	})
	if err != nil {
		// The tab exists in Chrome, grouped, but the host could not record
		// it: report unknown rather than claim it is owned.
		return protocol.OpenResult{}, protocol.FailAs(protocol.CodeInternal, protocol.OutcomeUnknown,
			"the tab was created but its ownership could not be recorded: "+err.Error())
	}
	h.raiseFloor(ctx, ext.TabID, ext.Revision)
	return protocol.OpenResult{
		Task:      protocol.TaskRef{ID: task.ID, Label: task.Label},
		Tab:       tabInfo(tab.Handle, ext),
		Placement: placement,
		Outcome:   protocol.OutcomeConfirmed,
	}, nil
}

func tabInfo(handle string, t protocol.ExtTab) protocol.TabInfo {
	return protocol.TabInfo{Tab: handle, URL: t.URL, Title: t.Title, AutomationRoute: t.Route, PageRevision: t.Revision, Loading: t.Loading}
}
