package host

import (
	"context"
	"sync"
)

// activity counts browser work that was admitted and holds its task's
// order, so that Pause can let dispatched work settle before it reports
// (spec 000). Work still waiting for its task's order is not counted: it
// is rejected when its turn comes.
type activity struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n == 0
}

func (a *activity) begin() func() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == 0 {
		a.idle = make(chan struct{})
	}
	a.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.n--
			if a.n == 0 {
				close(a.idle)
			}
		})
	}
}

// settled returns once no admitted work is running, or ctx ends.
func (a *activity) settled(ctx context.Context) error {
	a.mu.Lock()
	idle := a.idle
	n := a.n
	a.mu.Unlock()
	if n == 0 || idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
