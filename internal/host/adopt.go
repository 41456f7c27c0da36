package host

import (
	"context"
	"time"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// adoptSlack is how much longer than the user's timeout the host waits for
// the extension's answer (grouping after an Allow, the port round trip).
const adoptSlack = 15 * time.Second

// adopt serves browser_open {mode: "adopt_active"}: the extension asks the
// user, in the popup, to let this task adopt the active tab (protocol/
// adopt.go). Without an Allow within timeout_ms it fails needs_user.
func (h *Host) adopt(ctx context.Context, c *call, p protocol.OpenParams) (any, error) {
	if p.URL != "" || p.Placement != "" {
		return nil, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"adopt_active takes no url and no placement: it asks for the tab the user is looking at",
			`Omit url and placement with mode "adopt_active".`)
	}
	var perr *protocol.Error
	if p.TimeoutMs, perr = optionalCount("timeout_ms", p.TimeoutMs, protocol.DefaultAdoptTimeoutMs, protocol.MaxAdoptTimeoutMs, "Omit timeout_ms for the default, or pass a shorter one."); perr != nil {
		return nil, perr
	}
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodOpen, key, p, openFields,
		func(task store.Task) (protocol.OpenResult, *protocol.Error) {
			var ext protocol.ExtOpenResult
			params := protocol.ExtAdoptParams{Task: look(task), TimeoutMs: *p.TimeoutMs}
			timeout := time.Duration(*p.TimeoutMs)*time.Millisecond + adoptSlack
			if perr := h.extCall(ctx, timeout, protocol.NativeAdopt, params, &ext, protocol.OutcomeUnknown); perr != nil {
				return protocol.OpenResult{}, perr
			}
			return h.recordOpened(ctx, task, ext.Tab, store.SourceAdopted, protocol.PlacementTab)
		})
}
