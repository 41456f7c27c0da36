package corerpc

import (
	"net"
	"sync"
	"time"
)

// flight counts one connection's requests being handled, for back-pressure
// (serveConn reads no further while it is full) and for idleness (the read
// deadline runs only while nothing is in flight).
type flight struct {
	nc     net.Conn
	bounds bounds

	mu    sync.Mutex
	room  *sync.Cond // signalled whenever a request ends
	n     int
	bytes int
	// idleSince is when the last request in flight ended (or the
	// connection opened); evicted says the server cut the idle clock short
	// to make room for a new connection.
	idleSince time.Time
	evicted   bool
}

// newFlight starts the connection's idle clock: a new connection has
// nothing in flight.
func newFlight(nc net.Conn, b bounds) *flight {
	f := &flight{nc: nc, bounds: b, idleSince: time.Now()}
	f.room = sync.NewCond(&f.mu)
	nc.SetReadDeadline(time.Now().Add(b.idle))
	return f
}

// waitRoom blocks while the connection has its fill of requests in flight.
// It never waits forever: every handler ends (its calls are bounded, its
// write times out).
func (f *flight) waitRoom() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.n >= f.bounds.inFlight || f.bytes >= f.bounds.inFlightBytes {
		f.room.Wait()
	}
}

// begin counts a request of size bytes read; the connection is busy, so
// the idle clock stops.
func (f *flight) begin(size int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.nc.SetReadDeadline(time.Time{})
	}
	f.n++
	f.bytes += size
}

// end counts a request handled and answered; with nothing left in flight
// the idle clock starts again.
func (f *flight) end(size int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	f.bytes -= size
	if f.n == 0 {
		f.idleSince = time.Now()
		f.nc.SetReadDeadline(f.idleSince.Add(f.bounds.idle))
	}
	f.room.Broadcast()
}

// drain waits until every request in flight has ended.
func (f *flight) drain() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.n > 0 {
		f.room.Wait()
	}
}

// idleFor is how long the connection has had nothing in flight; ok is
// false while something is, or once it was evicted.
func (f *flight) idleFor(now time.Time) (d time.Duration, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n > 0 || f.evicted {
		return 0, false
	}
	return now.Sub(f.idleSince), true
}

// evict ends the idle clock now, so serveConn's read sees the deadline,
// tells the client connection_idle and closes; false when a request came
// in flight meanwhile (the connection is busy after all).
func (f *flight) evict() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n > 0 || f.evicted {
		return false
	}
	f.evicted = true
	f.nc.SetReadDeadline(time.Now())
	return true
}

// wasEvicted says whether the idle clock was cut short by evict.
func (f *flight) wasEvicted() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.evicted
}
