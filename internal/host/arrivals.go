package host

import "sync"

// arrivals keeps one connection's requests in the order they arrived
// (corerpc.Request.Seq) on their way into their task's order (taskLocks).
// corerpc handles each request in its own goroutine, so without it a
// request read later could take its place in the task's line before one
// read earlier (issue 10: a client pipelining a task's requests sees its
// mutations applied in the order it sent them). A request's place is
// passed when it has joined its task's line or has ended without joining
// it; the request after it waits only for that, never for its work.
type arrivals struct {
	mu sync.Mutex
	// next is the lowest place not passed yet; passed holds places above it
	// passed out of order.
	next   uint64
	passed map[uint64]bool
	// moved is closed (and replaced) whenever next advances.
	moved chan struct{}
}

func newArrivals() *arrivals {
	return &arrivals{next: 1, passed: map[uint64]bool{}, moved: make(chan struct{})}
}

// await blocks until every place before seq has passed. A request without
// a place (seq 0: not read off a Core connection) waits for nothing.
func (a *arrivals) await(seq uint64) {
	for {
		a.mu.Lock()
		if seq <= a.next {
			a.mu.Unlock()
			return
		}
		moved := a.moved
		a.mu.Unlock()
		<-moved
	}
}

// pass gives up seq's place; passing it again does nothing.
func (a *arrivals) pass(seq uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if seq < a.next {
		return
	}
	a.passed[seq] = true
	if seq != a.next {
		return
	}
	for a.passed[a.next] {
		delete(a.passed, a.next)
		a.next++
	}
	close(a.moved)
	a.moved = make(chan struct{})
}
