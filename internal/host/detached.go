package host

import (
	"context"
	"fmt"

	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// MaxDetachedTasks bounds the tasks the host keeps resumable after their
// connection closed without browser_finish (DESIGN.md "Tasks": 24 hours).
// Issue 9: a client that connects, makes one browser call, confirms the
// capability and disconnects, in a loop, had left a resumable task per
// turn (2,000 turns: 2,000 tasks, each listed by status and sent to the
// extension at every reconciliation).
//
// At the bound, the detached tasks that own no tab are finished early, the
// one detached longest first. That protects real users: such a task shows
// nothing in Chrome and holds nothing an agent could lose but the right to
// resume an empty task (a resume then answers resumed: false and the agent
// gets a new task, as spec 001 says of an invalid capability). A task that
// owns tabs is never finished early: its agent's work and its tab group
// are the user's to end. When every detached task owns tabs, a new task is
// refused (too_many_tasks, not_started) until the user closes some of
// those tabs or their agents come back and finish. Refusing new tasks
// before that point instead would let a loop lock every agent out.
//
// 256 is several days of agents that end without browser_finish; reaching
// it with tabs takes 256 tab groups in the user's Chrome.
const MaxDetachedTasks = 256

// roomForTask is checked before a task is created: it makes room under
// MaxDetachedTasks, or refuses. A connection closing meanwhile can detach
// one task more; the next close trims it.
func (h *Host) roomForTask(ctx context.Context) *protocol.Error {
	n, err := h.store.CountDetached(ctx)
	if err != nil {
		return internalError("counting detached tasks", err)
	}
	if n < MaxDetachedTasks {
		return nil
	}
	n, err = h.trimDetached(ctx, MaxDetachedTasks-1)
	if err != nil {
		return internalError("making room among detached tasks", err)
	}
	if n < MaxDetachedTasks {
		return nil
	}
	if perr := h.life.admit(); perr != nil {
		return perr // paused meanwhile: that is why nothing was finished
	}
	return protocol.Fail(protocol.CodeTooManyTasks,
		fmt.Sprintf("the AgentTab host keeps %d tasks whose agents disconnected without browser_finish, its limit, and every one of them owns tabs", n))
}

// trimDetached finishes, without closing tabs, the detached tasks past
// their resumable window, and then the oldest detached tasks that own no
// tab until at most keep are left. It returns how many it left, or why it
// could not read them. Finishing
// tells the extension, so it is browser work: admitted only while the host
// is ready, and counted for Pause (after a Pause, reconciliation finishes
// the expired tasks).
func (h *Host) trimDetached(ctx context.Context, keep int) (int, error) {
	h.trimMu.Lock()
	defer h.trimMu.Unlock()
	tasks, err := h.store.DetachedTasks(ctx)
	if err != nil {
		return 0, err
	}
	if h.life.admit() != nil {
		return len(tasks), nil
	}
	done := h.work.begin()
	defer done()
	expiredBefore := h.now().Add(-resumableFor)
	left := len(tasks)
	for _, t := range tasks {
		expired := t.DetachedAt != nil && t.DetachedAt.Before(expiredBefore)
		if !expired && (left <= keep || t.OwnedTabs > 0) {
			continue
		}
		if h.finishDetached(ctx, t.ID, expired) {
			left--
		}
	}
	return left, nil
}

// finishDetached finishes a task that is still detached when its turn
// comes, and (unless expired) still owns no tab; it reports whether it did.
func (h *Host) finishDetached(ctx context.Context, id string, expired bool) bool {
	unlock := h.lockTask(id)
	defer unlock()
	t, err := h.store.Task(ctx, id)
	if err != nil || t.State != store.TaskActive || t.ConnectionID != "" {
		return false // resumed or finished meanwhile
	}
	why := "expired: detached for " + resumableFor.String()
	if !expired {
		tabs, err := h.store.OwnedTabs(ctx, id)
		if err != nil || len(tabs) > 0 {
			return false
		}
		why = fmt.Sprintf("finished early: more than %d detached tasks, and it owns no tab", MaxDetachedTasks)
	}
	if _, perr := h.finishTask(ctx, nil, t, false); perr != nil {
		h.log.Printf("finishing detached task %s (%s): %v", id, why, perr)
		return false
	}
	h.forgetTask(ctx, id)
	h.log.Printf("task %s (%s) %s", id, t.Label, why)
	return true
}

// forgetTask deletes a finished task's rows when it never owned a tab
// (store.ForgetTask).
func (h *Host) forgetTask(ctx context.Context, id string) {
	if _, err := h.store.ForgetTask(ctx, id); err != nil {
		h.log.Printf("forgetting task %s: %v", id, err)
	}
}
