package host

import (
	"context"
	"slices"
	"sync"
)

// taskLocks is each task's order (lockTask): one request holds it, the
// others wait in line and are handed it first come, first served. A
// sync.Mutex would not do: it gives no order among its waiters, and lets a
// newcomer take it before them (issue 10: a task's pipelined requests run
// in the order they arrived). An entry exists only while a request holds
// its task's order or waits for it, so the map holds the tasks with work
// in flight and no more: a client that makes a task per connection in a
// loop (issue 9) leaves nothing behind.
type taskLocks struct {
	mu sync.Mutex
	m  map[string]*taskLine
}

// taskLine is one task's holder (implicit) and the requests waiting, in
// the order they joined.
type taskLine struct {
	waiting []chan struct{}
}

// join takes the last place in id's line. turn is closed when the order is
// the caller's; release hands it to the next in line, and must be called
// once, after turn.
func (l *taskLocks) join(id string) (turn <-chan struct{}, release func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]*taskLine{}
	}
	ch := make(chan struct{})
	line, busy := l.m[id]
	if !busy {
		line = &taskLine{}
		l.m[id] = line
		close(ch)
	} else {
		line.waiting = append(line.waiting, ch)
	}
	return ch, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(line.waiting) == 0 {
			delete(l.m, id)
			return
		}
		next := line.waiting[0]
		line.waiting = line.waiting[1:]
		close(next)
	}
}

// lock waits for id's order and returns its release.
func (l *taskLocks) lock(id string) func() {
	turn, release := l.join(id)
	<-turn
	return release
}

// lockWithin is lock bounded by ctx: when ctx ends before id's order is
// the caller's, it leaves the line (the next in line is not held up) and
// returns ctx's error.
func (l *taskLocks) lockWithin(ctx context.Context, id string) (func(), error) {
	turn, release := l.join(id)
	select {
	case <-turn:
		return release, nil
	case <-ctx.Done():
	}
	if l.leave(id, turn) {
		return nil, ctx.Err()
	}
	// The order was handed over as ctx ended: pass it on.
	release()
	return nil, ctx.Err()
}

// leave takes turn out of id's line; false when it is no longer waiting
// there (release handed it the order).
func (l *taskLocks) leave(id string, turn <-chan struct{}) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := l.m[id]
	if line == nil {
		return false
	}
	for i, ch := range line.waiting {
		if ch == turn {
			line.waiting = slices.Delete(line.waiting, i, i+1)
			return true
		}
	}
	return false
}

// held is how many tasks have work holding or waiting for their order.
func (l *taskLocks) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}
