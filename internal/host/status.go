package host

import (
	"context"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// status reports the lifecycle and a summary of every active task. It works
// in every lifecycle state and creates no task. It carries no URLs or
// titles: those belong to the task that owns the tab.
func (h *Host) status(ctx context.Context, c *call) (any, error) {
	var p struct{}
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	res := protocol.StatusResult{
		Lifecycle: h.life.get(), ProtocolVersion: protocol.Version, HostVersion: h.opts.Version,
		ExtensionID: h.extensionID, ExtensionVersion: h.extensionVersion,
		ConnectionID: c.s.conn.ID(), TaskID: c.s.currentTask(), Tasks: []protocol.TaskStatus{}, PauseReason: h.life.pauseReason(),
		DeveloperMode: h.policy.DeveloperMode.Enabled,
	}
	tasks, err := h.store.ActiveTasks(ctx)
	if err != nil {
		return nil, internalError("listing tasks", err)
	}
	for _, t := range tasks {
		tabs, err := h.store.OwnedTabs(ctx, t.ID)
		if err != nil {
			return nil, internalError("listing tabs", err)
		}
		res.Tasks = append(res.Tasks, protocol.TaskStatus{ID: t.ID, Label: t.Label, Color: t.Color, Attached: t.ConnectionID != "", OwnedTabs: len(tabs), Developer: t.Developer})
	}
	c.outcome = protocol.OutcomeObserved
	return res, nil
}
