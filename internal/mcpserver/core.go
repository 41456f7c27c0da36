package mcpserver

import (
	"context"
	"errors"
	"sync"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// core is the adapter's one Core connection, dialled lazily and again after
// it drops, so that the adapter starts before the host and connects as soon
// as the host appears.
type core struct {
	socket string
	hello  func() protocol.HelloParams
	// helloed is told the host's answer to every hello (developer_listing.go).
	helloed func(protocol.HelloResult)
	caps    *capabilityKeeper
	// keys maps the agent's idempotency keys for the same task the
	// capability resumes, and is dropped with it.
	keys *agentKeys

	mu     sync.Mutex
	client *corerpc.Client
	// reached: a host answered since the last wait for one to return
	// that ran its full course (host_return.go).
	reached bool
}

// connect returns the Core connection, dialling one if there is none; a
// host this adapter reached before is waited for (host_return.go).
func (c *core) connect(ctx context.Context) (*corerpc.Client, *protocol.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.connectLocked(ctx, true)
}

// probe connects if it can at once, only to hear the host's hello
// (developer_listing.go). It never waits for a host's return, nor for a
// call that is waiting for one (it holds mu), and leaves reached alone:
// the wait belongs to the agent's next call, which a listing must not use
// up (a client re-lists over HTTP before each call, http.go).
func (c *core) probe(ctx context.Context) {
	if !c.mu.TryLock() {
		return
	}
	defer c.mu.Unlock()
	_, _ = c.connectLocked(ctx, false)
}

// connectLocked is connect with mu held; await says whether a lost host
// is waited for.
func (c *core) connectLocked(ctx context.Context, await bool) (*corerpc.Client, *protocol.Error) {
	if c.client != nil {
		select {
		case <-c.client.Done():
			c.client = nil
		default:
			return c.client, nil
		}
	}
	cl, err := corerpc.DialClient(ctx, c.socket, c.caps.keep)
	if err != nil && await && c.reached {
		cl, err = awaitHostReturn(ctx, c.socket, c.caps.keep)
		if err != nil && ctx.Err() == nil {
			// The whole wait passed (the user quit Chrome): later calls
			// fail at once until a host is reached again. A call whose own
			// context ended first leaves the wait to the next one.
			c.reached = false
		}
	}
	if err != nil {
		return nil, hostUnreachable(protocol.OutcomeNotStarted)
	}
	var hello protocol.HelloResult
	if err := cl.Call(ctx, protocol.MethodHello, c.hello(), &hello); err != nil {
		cl.Close()
		// The host's own refusal (too_many_connections) says what to do.
		if pe, ok := errors.AsType[*protocol.Error](err); ok {
			return nil, pe
		}
		return nil, hostUnreachable(protocol.OutcomeNotStarted)
	}
	if err := c.resume(ctx, cl); err != nil {
		cl.Close()
		return nil, hostUnreachable(protocol.OutcomeNotStarted)
	}
	c.client = cl
	c.reached = true
	if c.helloed != nil {
		c.helloed(hello)
	}
	return cl, nil
}

// resume takes the task back on a new connection (after the host or the
// connection restarted) when this adapter holds a capability; the rotated
// one is kept and confirmed by the client before Call returns. A
// capability the host no longer honours is dropped: the next browser call
// starts a new task.
func (c *core) resume(ctx context.Context, cl *corerpc.Client) error {
	capability := c.caps.current()
	if capability == "" {
		return nil
	}
	var res protocol.ResumeResult
	if err := cl.Call(ctx, protocol.MethodResume, protocol.ResumeParams{Capability: capability}, &res); err != nil {
		return err
	}
	if !res.Resumed {
		c.taskEnded()
	}
	return nil
}

// taskEnded drops what this adapter kept for a task that is over
// (browser_finish ended it, or the host no longer resumes it): its
// capability and its idempotency key seed.
func (c *core) taskEnded() {
	c.caps.forget()
	c.keys.forget()
}

// call makes one Core request. ifLost is the outcome to report when the
// connection drops mid-call: unknown for a mutation, which may have run.
func (c *core) call(ctx context.Context, method string, params, out any, ifLost protocol.Outcome) *protocol.Error {
	cl, perr := c.connect(ctx)
	if perr != nil {
		return perr
	}
	err := cl.Call(ctx, method, params, out)
	if errors.Is(err, corerpc.ErrClosed) {
		// The connection had ended (the host restarted) before the request
		// went out, or the host refused it until a capability was confirmed
		// and the confirmation failed (the client retired that connection),
		// so nothing ran: connect again, resuming the task with the
		// capability kept (the host honours it until a replacement is
		// confirmed), and send it once more.
		c.forget(cl)
		if cl, perr = c.connect(ctx); perr != nil {
			return perr
		}
		err = cl.Call(ctx, method, params, out)
	}
	var pe *protocol.Error
	if errors.As(err, &pe) && starting(pe) && awaitReady(ctx, cl) {
		err = cl.Call(ctx, method, params, out)
	}
	if err == nil {
		return nil
	}
	if errors.As(err, &pe) {
		return pe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return protocol.FailAs(protocol.CodeExtensionTimeout, ifLost, "the call was cancelled before the host answered")
	}
	// The connection failed: the next call dials again rather than reuse
	// it (its read side may not have noticed yet).
	c.forget(cl)
	return hostUnreachable(ifLost)
}

func (c *core) forget(cl *corerpc.Client) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client == cl {
		c.client = nil
	}
	cl.Close()
}

func (c *core) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		c.client.Close()
		c.client = nil
	}
}

func hostUnreachable(outcome protocol.Outcome) *protocol.Error {
	e := protocol.NewError(protocol.CodeHostUnavailable, outcome,
		"the AgentTab host is not running or not reachable",
		"The host starts when Chrome loads the AgentTab extension: run `agenttab install`, open Chrome with the extension loaded, then retry this call. `agenttab doctor` says what is missing and how to fix it.")
	return e
}
