package host

import (
	"time"

	"github.com/agenttab/agenttab/internal/store"
)

// When each task last made a request, in memory: the popup's task list
// shows how long an agent has been quiet (protocol/popup_tasks.go). A host
// that restarted knows only the database's times, the task's making or
// its detaching, whichever is later.

// noteActivity records a request of the task.
func (h *Host) noteActivity(taskID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.active == nil {
		h.active = map[string]time.Time{}
	}
	h.active[taskID] = h.now()
}

// forgetActivity drops a finished task's entry.
func (h *Host) forgetActivity(taskID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.active, taskID)
}

// lastActive is when the task last made a request, as far as the host knows.
func (h *Host) lastActive(t store.Task) time.Time {
	h.mu.Lock()
	at, ok := h.active[t.ID]
	h.mu.Unlock()
	if ok {
		return at
	}
	if t.DetachedAt != nil && t.DetachedAt.After(t.CreatedAt) {
		return *t.DetachedAt
	}
	return t.CreatedAt
}
