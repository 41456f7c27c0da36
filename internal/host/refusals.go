package host

import (
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// refusalWindow: refused Core connections of one code (a foreign peer, one
// over the connection limit) are written as at most one audit record and
// one host-log line per window. Each refusal had been a line in both files,
// so a client connecting in a loop over the limit grew them without bound
// (issue 9). The first refusal of a quiet spell is written at once; the
// ones after it are counted and written together when the window ends,
// again each window while they go on, so every refusal is counted in some
// record (audit.Record.Count) and a record says how many were refused
// since the one before.
const refusalWindow = time.Second

// refusal is one refused connection, or a burst of them of one code.
type refusal struct {
	code protocol.ErrorCode
	// pid, message and recovery are the last refused peer's.
	pid               int
	message, recovery string
	count             int
	first, last       time.Time
}

// refusals coalesces refusals into records handed to emit.
type refusals struct {
	emit func(refusal)
	// after is time.AfterFunc; tests replace it to end windows themselves.
	after func(time.Duration, func())

	mu sync.Mutex
	// open holds a code's window while it is open, with what was refused
	// in it and not written yet (count 0: nothing).
	open map[protocol.ErrorCode]*refusal
}

// note counts one refusal: written at once when no window of its code is
// open, else with the window's record.
func (r *refusals) note(one refusal) {
	one.count, one.first = 1, one.last
	r.mu.Lock()
	if p := r.open[one.code]; p != nil {
		if p.count == 0 {
			p.first = one.last
		}
		p.count++
		p.pid, p.message, p.recovery, p.last = one.pid, one.message, one.recovery, one.last
		r.mu.Unlock()
		return
	}
	if r.open == nil {
		r.open = map[protocol.ErrorCode]*refusal{}
	}
	r.open[one.code] = &refusal{code: one.code}
	r.schedule(one.code)
	r.mu.Unlock()
	r.emit(one)
}

// schedule ends code's window after refusalWindow. r.mu is held.
func (r *refusals) schedule(code protocol.ErrorCode) {
	after := r.after
	if after == nil {
		after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	after(refusalWindow, func() { r.endWindow(code) })
}

// endWindow writes what the window counted and opens the next one, or
// closes the window when nothing came in it.
func (r *refusals) endWindow(code protocol.ErrorCode) {
	r.mu.Lock()
	p := r.open[code]
	if p == nil {
		r.mu.Unlock()
		return
	}
	if p.count == 0 {
		delete(r.open, code)
		r.mu.Unlock()
		return
	}
	burst := *p
	p.count = 0
	r.schedule(code)
	r.mu.Unlock()
	r.emit(burst)
}

// flush writes every count not written yet and closes every window; the
// host calls it before it closes the audit.
func (r *refusals) flush() {
	r.mu.Lock()
	var pending []refusal
	for code, p := range r.open {
		if p.count > 0 {
			pending = append(pending, *p)
		}
		delete(r.open, code)
	}
	r.mu.Unlock()
	for _, p := range pending {
		r.emit(p)
	}
}
