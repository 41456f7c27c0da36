package host

import "sync"

// taskLocks serialises each task's browser work (lockTask). An entry
// exists only while a request holds its task's lock or waits for it, so
// the map holds the tasks with work in flight and no more: a client that
// makes a task per connection in a loop (issue 9) leaves nothing behind.
type taskLocks struct {
	mu sync.Mutex
	m  map[string]*taskLock
}

type taskLock struct {
	sync.Mutex
	users int // holding or waiting; guarded by taskLocks.mu
}

// lock takes id's lock and returns its release.
func (l *taskLocks) lock(id string) func() {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*taskLock{}
	}
	e := l.m[id]
	if e == nil {
		e = &taskLock{}
		l.m[id] = e
	}
	e.users++
	l.mu.Unlock()
	e.Lock()
	return func() {
		e.Unlock()
		l.mu.Lock()
		defer l.mu.Unlock()
		if e.users--; e.users == 0 {
			delete(l.m, id)
		}
	}
}

// held is how many tasks have work holding or waiting for their lock.
func (l *taskLocks) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}
