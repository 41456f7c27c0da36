package host

import (
	"context"
	"errors"
	"sync"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// session is one Core connection's state. Its task is created lazily by the
// first browser request (spec 001) and is only ever the one this connection
// created: no request field can point it elsewhere.
type session struct {
	conn *corerpc.Conn
	// arrivals keeps the connection's requests in the order they were read
	// on their way into their task's order.
	arrivals       *arrivals
	mu             sync.Mutex
	taskID         string
	conversationID string
	// unconfirmed: a resume capability was issued on this connection and
	// not confirmed yet; nothing but capability_confirm, hello and status
	// is admitted until it is (spec 000: persist-then-confirm).
	unconfirmed bool
	// ended: the user ended the connection's task from the popup; its
	// next browser call hears task_ended once (extrequest.go endTask).
	ended bool
}

func (s *session) setEnded(v bool) {
	s.mu.Lock()
	s.ended = v
	s.mu.Unlock()
}

// takeEnded reports, once, that the user ended the session's task.
func (s *session) takeEnded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ended := s.ended
	s.ended = false
	return ended
}

func (s *session) currentTask() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taskID
}

// task returns the session's active task, creating it on first use and
// after browser_finish ended the previous one. A new task comes with its
// resume capability, which the call hands to the client.
func (h *Host) task(ctx context.Context, c *call) (store.Task, *protocol.Error) {
	s := c.s
	s.mu.Lock()
	t, ok, perr := h.activeTask(ctx, s)
	s.mu.Unlock()
	if ok || perr != nil {
		return t, perr
	}
	// Room is made without the session's lock: making it takes other
	// tasks' locks, and resume holds a task's lock while it takes
	// sessions' locks (detachFromOtherSessions).
	if perr := h.roomForTask(ctx); perr != nil {
		return store.Task{}, perr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Another request of the connection may have made the task meanwhile.
	if t, ok, perr := h.activeTask(ctx, s); ok || perr != nil {
		return t, perr
	}
	t, err := h.store.CreateTask(ctx, s.conn.ID(), s.conversationID, h.now())
	if err != nil {
		return store.Task{}, internalError("creating a task", err)
	}
	capability, err := h.issueCapability(ctx, t.ID)
	if err != nil {
		return store.Task{}, internalError("issuing the task's resume capability", err)
	}
	s.taskID = t.ID
	s.unconfirmed = true
	c.capability = capability
	h.log.Printf("%s: new task %s (%s)", s.conn.ID(), t.ID, t.Label)
	return t, nil
}

// activeTask is the session's task while it is active; s.mu is held.
func (h *Host) activeTask(ctx context.Context, s *session) (store.Task, bool, *protocol.Error) {
	if s.taskID == "" {
		return store.Task{}, false, nil
	}
	// A finished task that owned no tab may be gone (store.ForgetTask).
	t, err := h.store.Task(ctx, s.taskID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.Task{}, false, internalError("loading the task", err)
	}
	return t, err == nil && t.State == store.TaskActive, nil
}

// taskCall binds a browser request to its connection's task and serialises
// it with the task's other requests, in the order the connection sent them
// (arrivals.go); the caller must call unlock.
func (h *Host) taskCall(ctx context.Context, c *call) (store.Task, func(), *protocol.Error) {
	// The connection's earlier requests go first: into the task's line, or
	// out (Handle passes the place of a request that never joins). So the
	// first request also makes the task.
	c.s.arrivals.await(c.seq)
	// Checked again after the wait: a request pipelined behind the one that
	// made the task passed serve's check before the capability existed.
	if c.s.awaitingConfirm() {
		return store.Task{}, nil, errCapabilityUnconfirmed()
	}
	if c.s.takeEnded() {
		return store.Task{}, nil, protocol.Fail(protocol.CodeTaskEnded, "the user ended this connection's task from the AgentTab popup; its tabs are released")
	}
	task, perr := h.task(ctx, c)
	if perr != nil {
		return store.Task{}, nil, perr
	}
	c.taskID = task.ID
	h.noteActivity(task.ID)
	turn, unlock := h.taskLocks.join(task.ID)
	c.s.arrivals.pass(c.seq)
	<-turn
	// Admission again, now that the task's turn has come: work that queued
	// behind another request while the user paused is rejected, not run.
	if perr := h.life.admit(); perr != nil {
		unlock()
		return store.Task{}, nil, perr
	}
	done := h.work.begin()
	return task, func() { done(); unlock() }, nil
}

// tabCall is taskCall for a request on one of the task's tabs: the handle
// must name a tab the task owns now. unlock is nil on failure.
func (h *Host) tabCall(ctx context.Context, c *call, handle string) (store.Task, store.OwnedTab, func(), *protocol.Error) {
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return store.Task{}, store.OwnedTab{}, nil, perr
	}
	tab, perr := h.ownedTab(ctx, task.ID, handle)
	if perr != nil {
		unlock()
		return store.Task{}, store.OwnedTab{}, nil, perr
	}
	return task, tab, unlock, nil
}

// lockTask serialises a task's browser work. Spec 001: the extension keeps an
// ordered tail per task; the host keeps the same order so that a request's
// check (ownership, eligibility) and its effect are not interleaved with
// another request of the same task. Requests of a connection take their
// places through taskCall, in the order they arrived.
func (h *Host) lockTask(id string) func() { return h.taskLocks.lock(id) }

func internalError(what string, err error) *protocol.Error {
	return protocol.FailAs(protocol.CodeInternal, protocol.OutcomeNotStarted, what+": "+err.Error())
}
