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
)

// ErrClosed is returned by calls on a client whose connection ended.
var ErrClosed = errors.New("core rpc: connection closed")

// Client is one Core connection (and so, once it does browser work, one
// task). It is safe for concurrent calls.
type Client struct {
	nc      net.Conn
	wmu     sync.Mutex
	mu      sync.Mutex
	nextID  int64
	pending map[string]chan response
	done    chan struct{}
	err     error
}

// DialClient connects to the Core endpoint at path.
func DialClient(ctx context.Context, path string) (*Client, error) {
	nc, err := Dial(ctx, path)
	if err != nil {
		return nil, err
	}
	c := &Client{nc: nc, pending: map[string]chan response{}, done: make(chan struct{})}
	go c.readLoop()
	return c, nil
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
		line, err = readLine(br)
		if err != nil {
			break
		}
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *wireError      `json:"error"`
		}
		if json.Unmarshal(line, &r) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.pending[string(r.ID)]
		delete(c.pending, string(r.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- response{ID: r.ID, Result: r.Result, Error: r.Error}
		}
	}
	c.mu.Lock()
	c.err = err
	c.pending = nil
	c.mu.Unlock()
	close(c.done)
}

// Call sends one request and decodes the result into out (which may be
// nil). A failure the host reported comes back as *protocol.Error.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	if params == nil {
		params = struct{}{}
	}
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.pending == nil {
		c.mu.Unlock()
		return ErrClosed
	}
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	c.pending[id] = ch
	c.mu.Unlock()

	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("core rpc: encode %s: %w", method, err)
	}
	c.wmu.Lock()
	_, err = c.nc.Write(append(body, '\n'))
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("core rpc: send %s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			if r.Error.Data != nil {
				return r.Error.Data
			}
			return fmt.Errorf("core rpc: %s: error %d: %s", method, r.Error.Code, r.Error.Message)
		}
		if out == nil {
			return nil
		}
		raw, _ := r.Result.(json.RawMessage)
		return json.Unmarshal(raw, out)
	case <-c.done:
		return ErrClosed
	case <-ctx.Done():
		c.mu.Lock()
		if c.pending != nil {
			delete(c.pending, id)
		}
		c.mu.Unlock()
		return ctx.Err()
	}
}
