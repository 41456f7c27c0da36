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
// and before its answer: the request may have run.
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

// confirmWait bounds one confirmation: a local file write and one Core
// round trip. It is not the caller's context, which may have ended.
const confirmWait = 30 * time.Second

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
	c := &Client{nc: nc, pending: map[string]chan reply{}, done: make(chan struct{}), keep: keep}
	go c.readLoop()
	return c
}

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close ends the connection.
func (c *Client) Close() error { return c.nc.Close() }

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
		ch := c.pending[string(r.ID)]
		delete(c.pending, string(r.ID))
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
// was not confirmed yet (nothing ran) is sent again once it is.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	err := c.call(ctx, method, params, out)
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != protocol.CodeCapabilityUnconfirmed {
		return err
	}
	c.mu.Lock()
	settled := c.settled
	c.mu.Unlock()
	if settled == nil {
		return err
	}
	select {
	case <-settled.done:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return ErrClosed
	}
	if settled.err != nil {
		// Not confirmed: the host goes on refusing, so sending again is
		// pointless.
		return err
	}
	return c.call(ctx, method, params, out)
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
	if c.pending == nil {
		c.mu.Unlock()
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
	select {
	case r := <-ch:
		if r.confirmation != nil {
			// The answer is not returned before its capability is kept and
			// confirmed (readLoop started that; it goes on if ctx ends).
			select {
			case <-r.confirmation.done:
			case <-ctx.Done():
				return ctx.Err()
			}
			if r.confirmation.err != nil {
				return r.confirmation.err
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
	case <-c.done:
		return c.lost()
	case <-ctx.Done():
		c.mu.Lock()
		if c.pending != nil {
			delete(c.pending, id)
		}
		c.mu.Unlock()
		return ctx.Err()
	}
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
// bounded by confirmWait. If keep fails the capability stays unconfirmed:
// the host admits nothing more on this connection, and the capability it
// replaces (if any) still resumes the task from a new one. Calls waiting
// for the confirmation are released either way.
func (c *Client) confirm(conf *confirmation, capability string) {
	defer close(conf.done)
	if c.keep == nil {
		conf.err = errors.New("core rpc: the host issued a resume capability to a client that cannot keep one")
		return
	}
	if err := c.keep(capability); err != nil {
		conf.err = fmt.Errorf("core rpc: storing the resume capability: %w", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), confirmWait)
	defer cancel()
	var res protocol.CapabilityConfirmResult
	if err := c.call(ctx, protocol.MethodCapabilityConfirm, nil, &res); err != nil {
		conf.err = fmt.Errorf("core rpc: confirming the resume capability: %w", err)
	}
}
