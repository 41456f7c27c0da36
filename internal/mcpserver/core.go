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

	mu     sync.Mutex
	client *corerpc.Client
}

func (c *core) connect(ctx context.Context) (*corerpc.Client, *protocol.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		select {
		case <-c.client.Done():
			c.client = nil
		default:
			return c.client, nil
		}
	}
	cl, err := corerpc.DialClient(ctx, c.socket)
	if err != nil {
		return nil, hostUnreachable(protocol.OutcomeNotStarted)
	}
	if err := cl.Call(ctx, protocol.MethodHello, c.hello(), nil); err != nil {
		cl.Close()
		return nil, hostUnreachable(protocol.OutcomeNotStarted)
	}
	c.client = cl
	return cl, nil
}

// call makes one Core request. ifLost is the outcome to report when the
// connection drops mid-call: unknown for a mutation, which may have run.
func (c *core) call(ctx context.Context, method string, params, out any, ifLost protocol.Outcome) *protocol.Error {
	cl, perr := c.connect(ctx)
	if perr != nil {
		return perr
	}
	err := cl.Call(ctx, method, params, out)
	if err == nil {
		return nil
	}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return pe
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return protocol.NewError(protocol.CodeExtensionTimeout, ifLost, "the call was cancelled before the host answered",
			"Check the browser state with browser_tabs before repeating a mutation.")
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
		"The host starts when Chrome loads the AgentTab extension: run `agenttab install`, open Chrome with the extension loaded, then retry this call. `agenttab status` says what is missing.")
	return e
}
