package corerpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// ErrClosed is returned by calls on a client whose connection had ended
// before the request was sent, or that the host closed saying it read
// nothing further (connection_idle): nothing reached the host's handlers,
// and the request can be sent again on a new connection.
var ErrClosed = errors.New("core rpc: connection closed")

// ErrLost is returned when the connection ended after the request was sent
// and before its answer: the request may have run. It is also the error of
// a request that ran but whose answer carried a resume capability that was
// not kept and confirmed: the answer is withheld (spec 000: persist, then
// confirm) and the request must not be sent again.
var ErrLost = errors.New("core rpc: connection lost before the answer")

// Client is one Core connection (and so, once it does browser work, one
// task). It is safe for concurrent calls.
type Client struct {
	nc      net.Conn
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int64
	pending map[string]chan reply
	done    chan struct{}
	err     error
	// farewell is the host's notice that it closed the connection without
	// reading further (connection_idle, too_many_connections). Guarded by
	// mu.
	farewell *protocol.Error
	// keep stores an issued resume capability durably (nil: the client
	// never takes part in browser work, like `agenttab status`).
	keep func(capability string) error
	// settled is the confirmation of the capability issued last (nil
	// before any): calls the host refused while it was outstanding wait
	// for it. Guarded by mu.
	settled *confirmation
	// changed is closed (and replaced) by readLoop when a capability
	// arrives or no request is outstanding any more: a call the host
	// refused before the answer carrying the capability came waits on it
	// (Call). Guarded by mu.
	changed chan struct{}
	// confirmWait is confirmWait; tests shorten it.
	confirmWait time.Duration
	// retired: a capability was not kept or not confirmed; nothing more is
	// sent, and the connection ends once drained (retire). Guarded by mu.
	retired bool
}

// confirmation is the storing and confirming of one issued capability. It
// belongs to the connection, not to the call whose answer carried the
// capability: that call's context may end first, and the capability must
// still be kept and confirmed, or the host admits nothing more on this
// connection (spec 000: persist, then confirm, before another RPC).
type confirmation struct {
	done chan struct{}
	// err is why the capability was not kept or not confirmed; set before
	// done closes.
	err error
}

// confirmWait bounds one confirmation: a local file write (keep) and one
// Core round trip. It is not the caller's context, which may have ended.
const confirmWait = 30 * time.Second

// finished reports whether the confirmation is over, kept and confirmed or
// not.
func (conf *confirmation) finished() bool {
	select {
	case <-conf.done:
		return true
	default:
		return false
	}
}

// reply is what readLoop hands the call waiting for it.
type reply struct {
	result json.RawMessage
	err    *wireError
	// confirmation is that of the capability the answer carried, if any.
	confirmation *confirmation
}

// DialClient connects to the Core endpoint at path. keep is called with
// each resume capability the host issues on this connection; once it
// returns nil the client confirms the capability before the Call that
// brought it returns (spec 000: persist, then confirm, before another RPC).
func DialClient(ctx context.Context, path string, keep func(capability string) error) (*Client, error) {
	nc, err := Dial(ctx, path)
	if err != nil {
		return nil, err
	}
	return newClient(nc, keep), nil
}

func newClient(nc net.Conn, keep func(capability string) error) *Client {
	c := &Client{nc: nc, pending: map[string]chan reply{}, done: make(chan struct{}), keep: keep,
		changed: make(chan struct{}), confirmWait: confirmWait}
	go c.readLoop()
	return c
}

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close ends the connection. A retired one ends by itself, once the
// answers still due on it came (retire).
func (c *Client) Close() error {
	c.mu.Lock()
	retired := c.retired
	c.mu.Unlock()
	if retired {
		return nil
	}
	return c.nc.Close()
}

func (c *Client) readLoop() {
	br := bufio.NewReaderSize(c.nc, 64<<10)
	var err error
	for {
		var line []byte
		line, err = ReadLine(br, MaxLine, false)
		if err != nil {
			break
		}
		var r struct {
			ID         json.RawMessage `json:"id"`
			Result     json.RawMessage `json:"result"`
			Error      *wireError      `json:"error"`
			Capability string          `json:"capability"`
		}
		if json.Unmarshal(line, &r) != nil {
			continue
		}
		if f := farewell(r.ID, r.Error); f != nil {
			c.mu.Lock()
			c.farewell = f
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		// Started before the response is delivered, so that a concurrent
		// call the host refused meanwhile knows a confirmation is coming,
		// and whether or not the call that brought the capability still
		// waits for its answer.
		var conf *confirmation
		if r.Capability != "" {
			conf = &confirmation{done: make(chan struct{})}
			c.settled = conf
			go c.confirm(conf, r.Capability)
		}
		ch, outstanding := c.pending[string(r.ID)]
		delete(c.pending, string(r.ID))
		if conf != nil || (outstanding && len(c.pending) == 0) {
			c.wakeLocked()
		}
		c.drainLocked()
		c.mu.Unlock()
		if ch != nil {
			ch <- reply{result: r.Result, err: r.Error, confirmation: conf}
		}
	}
	c.mu.Lock()
	c.err = err
	c.pending = nil
	c.mu.Unlock()
	close(c.done)
}

// Call sends one request and decodes the result into out (which may be
// nil). A failure the host reported comes back as *protocol.Error. A
// request the host refused because a capability issued on this connection
// was not confirmed yet (nothing ran) is sent again once it is; if it
// cannot be (the confirmation failed and the connection is retired, or
// the connection ended), the error is ErrClosed, so that the caller dials
// again, resumes with the capability it kept and sends the request once
// more.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	before := c.settled
	c.mu.Unlock()
	// A confirmation still under way when the request is sent may be what
	// the host refuses it for.
	beforeOpen := before != nil && !before.finished()
	err := c.call(ctx, method, params, out)
	if pe, ok := errors.AsType[*protocol.Error](err); !ok || pe.Code != protocol.CodeCapabilityUnconfirmed {
		return err
	}
	conf, werr := c.awaitCapability(ctx, method, before, beforeOpen)
	if werr != nil {
		return werr
	}
	if conf == nil {
		// No capability is outstanding on this connection that the client
		// knows of: the host's refusal stands.
		return err
	}
	select {
	case <-conf.done:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.refusedThenClosed(method, nil)
	}
	if conf.err != nil {
		// Not confirmed: confirm retired the connection, on which the host
		// would go on refusing everything.
		return c.refusedThenClosed(method, conf.err)
	}
	return c.call(ctx, method, params, out)
}

// awaitCapability finds the confirmation a request the host refused
// capability_unconfirmed waits for: one under way when it was sent
// (before, beforeOpen) or one started since. Failing both, while other
// requests are outstanding it waits for the capability one of their
// answers will carry: the host refuses as soon as a parallel request made
// the task, before that request's answer (carrying the capability) is
// written. nil: none can come.
func (c *Client) awaitCapability(ctx context.Context, method string, before *confirmation, beforeOpen bool) (*confirmation, error) {
	for {
		c.mu.Lock()
		latest, ended, outstanding, changed := c.settled, c.pending == nil, len(c.pending), c.changed
		c.mu.Unlock()
		switch {
		case latest != before || beforeOpen:
			return latest, nil
		case ended:
			return nil, c.refusedThenClosed(method, nil)
		case outstanding == 0:
			return nil, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.done:
			return nil, c.refusedThenClosed(method, nil)
		}
	}
}

// refusedThenClosed is the error of a request the host refused
// capability_unconfirmed (nothing ran) on a connection that then ended, or
// whose capability failed to be kept or confirmed (why): ErrClosed, so it
// is sent again on a new connection.
func (c *Client) refusedThenClosed(method string, why error) error {
	if why == nil {
		return fmt.Errorf("%w: %s was refused until a resume capability was confirmed, and the connection ended", ErrClosed, method)
	}
	// %v, not %w: why may wrap ErrClosed or a context's error of its own.
	return fmt.Errorf("%w: %s was refused until a resume capability was confirmed, which failed: %v", ErrClosed, method, why)
}

// retire stops a connection whose capability was not kept or not
// confirmed from sending anything more (the host would refuse it: call
// answers ErrClosed, nothing sent), and ends it once the requests still
// outstanding are answered (the host refuses them at once, and a refusal
// says that nothing ran, where a connection cut before it could not), or
// after confirmWait.
func (c *Client) retire() {
	c.mu.Lock()
	c.retired = true
	c.drainLocked()
	c.mu.Unlock()
	time.AfterFunc(c.confirmWait, func() { c.nc.Close() })
}

// drainLocked ends a retired connection once no caller waits for an
// answer on it (an abandoned request's answer has no one to hand it to);
// mu is held.
func (c *Client) drainLocked() {
	if !c.retired {
		return
	}
	for _, ch := range c.pending {
		if ch != nil {
			return
		}
	}
	c.nc.Close()
}

// wakeLocked wakes the calls waiting in awaitCapability; mu is held.
func (c *Client) wakeLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) call(ctx context.Context, method string, params, out any) error {
	if params == nil {
		params = struct{}{}
	}
	c.mu.Lock()
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	c.mu.Unlock()

	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("core rpc: encode %s: %w", method, err)
	}
	if len(body) > MaxLine {
		// The host would refuse the line and close the connection (a
		// line-framed stream cannot be resynchronised), and the caller
		// could not tell whether the request ran. Refused here, nothing
		// was sent.
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			fmt.Sprintf("the %s request is %d bytes once encoded; a request to the AgentTab host is limited to %d bytes, so it was not sent", method, len(body), MaxLine),
			"Send less in one call: split a long text over several type steps (type appends), or send fewer steps per call.")
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.pending == nil || c.retired {
		c.mu.Unlock()
		// Nothing was sent; the host's farewell, if it said one before
		// the end, says why (too_many_connections is its refusal).
		if f := c.farewellErr(); f != nil {
			return f
		}
		return ErrClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()
	c.wmu.Lock()
	n, err := c.nc.Write(append(body, '\n'))
	c.wmu.Unlock()
	if err != nil {
		c.mu.Lock()
		delete(c.pending, id) // a nil map after readLoop ended: a no-op
		if c.pending != nil && len(c.pending) == 0 {
			c.wakeLocked()
		}
		c.drainLocked()
		c.mu.Unlock()
		// The host may have closed the connection after saying why; its
		// farewell is still to be read, and readLoop ends after it.
		select {
		case <-c.done:
		case <-ctx.Done():
		case <-time.After(farewellWait):
		}
		// The stream is broken (a partial line would corrupt the next):
		// end it, so that later calls dial again.
		c.nc.Close()
		if f := c.farewellErr(); f != nil {
			return f
		}
		if n == 0 {
			// Not a byte went out: nothing reached the host.
			return fmt.Errorf("%w: send %s: %w", ErrClosed, method, err)
		}
		return fmt.Errorf("core rpc: send %s: %w", method, err)
	}
	var r reply
	select {
	case r = <-ch:
	case <-c.done:
		// An answer read just before the end (a retired connection ends
		// right after its last answer) was handed over before done closed.
		select {
		case r = <-ch:
		default:
			return c.lost()
		}
	case <-ctx.Done():
		c.mu.Lock()
		if _, ok := c.pending[id]; ok {
			// Its answer is still due, and may carry a capability: kept
			// outstanding (no one to hand it to), so that a call the host
			// refused meanwhile waits for it (awaitCapability).
			c.pending[id] = nil
		}
		c.drainLocked()
		c.mu.Unlock()
		return ctx.Err()
	}
	return c.answer(ctx, method, r, out)
}

// answer is the outcome of a request the host answered.
func (c *Client) answer(ctx context.Context, method string, r reply, out any) error {
	if r.confirmation != nil {
		// The answer is not returned before its capability is kept and
		// confirmed (readLoop started that; it goes on if ctx ends).
		select {
		case <-r.confirmation.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.confirmation.err != nil {
			// The request ran: never ErrClosed (which would send it
			// again), whatever made the confirmation fail.
			return fmt.Errorf("%w: %s was answered with a resume capability that was not kept and confirmed, so its answer is withheld: %v", ErrLost, method, r.confirmation.err)
		}
	}
	if r.err != nil {
		if r.err.Data != nil {
			return r.err.Data
		}
		return fmt.Errorf("core rpc: %s: error %d: %s", method, r.err.Code, r.err.Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(r.result, out)
}

// farewellWait bounds how long a call whose write failed waits for the
// host's farewell, which the host wrote before closing and so is already on
// its way (a failed write means the host has closed).
// Generous: it is waited only after a failed write, and the farewell is
// all that tells the caller why (a loaded machine can delay the read).
const farewellWait = 5 * time.Second

// farewell recognises the host's notice that it is closing the connection
// without reading anything further from it: an error for no request (id
// null) with one of the two codes the host sends only then. Nothing the
// client sent and had no answer for ran.
func farewell(id json.RawMessage, e *wireError) *protocol.Error {
	if e == nil || e.Data == nil || string(id) != "null" {
		return nil
	}
	if e.Data.Code != protocol.CodeConnectionIdle && e.Data.Code != protocol.CodeTooManyConnections {
		return nil
	}
	return e.Data
}

// lost is the error of a call whose connection ended before its answer:
// ErrLost (it may have run), unless the host said farewell first.
func (c *Client) lost() error {
	if f := c.farewellErr(); f != nil {
		return f
	}
	return ErrLost
}

// farewellErr is the error of a call the host's farewell (if any) says
// never ran: after connection_idle it is ErrClosed as well (dial again and
// send it once more); too_many_connections is the host's refusal itself.
func (c *Client) farewellErr() error {
	c.mu.Lock()
	f := c.farewell
	c.mu.Unlock()
	switch {
	case f == nil:
		return nil
	case f.Code == protocol.CodeConnectionIdle:
		return fmt.Errorf("%w: %w", ErrClosed, f)
	default:
		return f
	}
}

// confirm stores a newly issued capability with keep and confirms it,
// both within confirmWait (a hung fsync must not hang the caller). If
// either fails the capability stays unconfirmed and the connection is
// retired (retire): the host would admit nothing more on it, while the
// capability it replaces (if any), or the new one if it was kept, still
// resumes the task from a new connection (spec 001: until a replacement
// is confirmed the old one still resumes). Calls waiting for the
// confirmation are released either way.
func (c *Client) confirm(conf *confirmation, capability string) {
	defer close(conf.done)
	if conf.err = c.keepAndConfirm(capability); conf.err != nil {
		c.retire()
	}
}

func (c *Client) keepAndConfirm(capability string) error {
	if c.keep == nil {
		return errors.New("core rpc: the host issued a resume capability to a client that cannot keep one")
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.confirmWait)
	defer cancel()
	kept := make(chan error, 1)
	go func() { kept <- c.keep(capability) }()
	select {
	case err := <-kept:
		if err != nil {
			return fmt.Errorf("core rpc: storing the resume capability: %w", err)
		}
	case <-ctx.Done():
		return fmt.Errorf("core rpc: storing the resume capability took longer than %v", c.confirmWait)
	}
	var res protocol.CapabilityConfirmResult
	if err := c.call(ctx, protocol.MethodCapabilityConfirm, nil, &res); err != nil {
		return fmt.Errorf("core rpc: confirming the resume capability: %w", err)
	}
	return nil
}
