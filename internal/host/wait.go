package host

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// wait waits on an owned tab. It is a read (DESIGN.md "Queues"): it starts
// after the task's earlier requests have settled, and releases the task's
// order once its request is on the native port, so that it never blocks
// later mutations and none of them reaches the extension (which orders a
// task's requests as they arrive) before it.
func (h *Host) wait(ctx context.Context, c *call) (any, error) {
	var p protocol.WaitParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkWaitCondition(&p.Condition); perr != nil {
		return nil, perr
	}
	task, tab, unlock, perr := h.tabCall(ctx, c, p.Tab)
	if perr != nil {
		return nil, perr
	}
	// Ordered after the task's earlier requests, then out of the way as
	// soon as the extension has it: released before the write, a later
	// act could reach the extension first and the wait start after it.
	var release sync.Once
	sent := func() { release.Do(unlock) }
	defer sent() // when nothing was written
	timeout := time.Duration(*p.Condition.TimeoutMs)*time.Millisecond + 10*time.Second
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var ext protocol.ExtWaitResult
	params := protocol.ExtWaitParams{TaskID: task.ID, TabID: tab.ChromeTabID, Condition: p.Condition}
	if perr := h.link.callSent(cctx, protocol.NativeWait, params, &ext, protocol.OutcomeNotStarted, sent); perr != nil {
		return nil, perr
	}
	h.raiseFloor(ctx, tab.ChromeTabID, ext.Revision)
	c.outcome = protocol.OutcomeObserved
	return protocol.WaitResult{
		Tab: tab.Handle, Until: p.Condition.Until, Satisfied: ext.Satisfied, ElapsedMs: ext.ElapsedMs,
		URL: ext.URL, Title: ext.Title, PageRevision: ext.Revision, LastSeen: ext.LastSeen, Download: ext.Download, ServedBy: ext.ServedBy,
		OriginStops: ext.OriginStops, Challenge: h.checkedChallenge(ext.Challenge), Outcome: protocol.OutcomeObserved,
	}, nil
}

func checkWaitCondition(w *protocol.WaitCondition) *protocol.Error {
	bad := func(msg, recovery string) *protocol.Error {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted, msg, recovery)
	}
	var perr *protocol.Error
	if w.TimeoutMs, perr = optionalCount("timeout_ms", w.TimeoutMs, protocol.DefaultWaitMs, protocol.MaxWaitMs, "Omit timeout_ms for the default, or wait in several calls for longer."); perr != nil {
		return perr
	}
	if perr := oneOf("until", w.Until, protocol.WaitUntils); perr != nil {
		return perr
	}
	switch w.Until {
	case protocol.WaitLoad, protocol.WaitNavigation, protocol.WaitDownload:
	case protocol.WaitURL:
		if w.URL == "" {
			return bad(`until "url" needs url (exact, or a glob with *)`, `Pass url, for example "https://example.com/done*".`)
		}
	case protocol.WaitText:
		if w.Text == "" {
			return bad(`until "text" needs text`, "Pass the text to wait for (gone: true to wait for it to disappear).")
		}
	case protocol.WaitRef:
		if w.Ref == "" {
			return bad(`until "ref" needs ref`, "Pass a ref from the latest snapshot.")
		}
		if !protocol.IsRef(w.Ref) {
			return bad(fmt.Sprintf("ref %q is not a ref (they look like e12)", w.Ref), "Pass a ref from the latest snapshot.")
		}
		if perr := optionalOneOf("state", &w.State, protocol.WaitVisible, protocol.WaitStates); perr != nil {
			return perr
		}
	case protocol.WaitNetworkIdle:
		if w.IdleMs, perr = optionalCount("idle_ms", w.IdleMs, protocol.DefaultIdleMs, protocol.MaxIdleMs, "Omit idle_ms for 500 ms of quiet."); perr != nil {
			return perr
		}
	}
	if w.IdleMs != nil && w.Until != protocol.WaitNetworkIdle {
		return bad(`idle_ms is only for until "network_idle"`, "Omit idle_ms.")
	}
	for name, v := range map[string]string{"url": w.URL, "text": w.Text, "ref": w.Ref} {
		if perr := checkLen(name, v, 2000); perr != nil {
			return perr
		}
	}
	return nil
}
