package host

import (
	"context"
	"fmt"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// The host's half of page revisions. Spec 001: "The host and extension
// reject actions when ownership, document revision, or ref epoch no longer
// matches." The extension counts a tab's revisions (watch-revisions.ts) and
// remains the final judge; the host keeps, per Chrome tab, the newest
// revision it has been told (the revision floor in the store): every
// revision event, and every answer that carries a revision, raises it.
//
// What the host can check: the extension posts a revision's event before
// anything that can carry that revision, on the same port, and the host
// applies events in arrival order, so no answer ever gives an agent a
// revision above the floor. An expected revision below the floor is one the
// tab has left; one above it is one the tab never had. Both are refused
// here; a revision equal to the floor may still be stale (a navigation whose
// event is on its way), which the extension refuses.
//
// What it cannot: ref epochs. browser_act carries refs ("e12"), not epochs;
// the page agent resolves a ref only in the document that issued it
// (ARCHITECTURE.md, "Refs are unique per tab"), and only the extension sees
// documents.

// raiseFloor keeps the host's revision floor at the highest revision seen.
func (h *Host) raiseFloor(ctx context.Context, chromeTabID int, revision int64) {
	if err := h.store.SetRevisionFloor(ctx, chromeTabID, revision); err != nil {
		h.log.Printf("revision floor of tab %d: %v", chromeTabID, err)
	}
}

// checkRevision refuses a batch whose expected revision the host knows is
// not the tab's, before the idempotency key is recorded and before anything
// is sent. A key the task already used is left to its record (a completed
// batch replays even though it moved the tab on).
func (h *Host) checkRevision(ctx context.Context, taskID, key string, tab store.OwnedTab, expected int64) *protocol.Error {
	if key != "" {
		used, err := h.store.IdempotencyKeyUsed(ctx, taskID, key)
		if err != nil {
			return internalError("reading the idempotency key", err)
		}
		if used {
			return nil
		}
	}
	floor, err := h.store.RevisionFloor(ctx, tab.ChromeTabID)
	if err != nil {
		return internalError("reading the page revision", err)
	}
	var msg string
	switch {
	case floor == 0:
		return nil // nothing reported yet: the extension judges
	case expected < floor:
		msg = fmt.Sprintf("tab %s has navigated since page revision %d: it is at revision %d or later", tab.Handle, expected, floor)
	case expected > floor:
		msg = fmt.Sprintf("tab %s never had page revision %d: the newest it has reported is %d", tab.Handle, expected, floor)
	default:
		return nil
	}
	return protocol.Fail(protocol.CodeStaleRevision, msg)
}
