package corerpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// testTimeout ends a test that would otherwise hang on a broken bound; it
// is not a speed assertion.
const testTimeout = 30 * time.Second

// small is a server's bounds shrunk to what a test can reach.
func small(mod func(*bounds)) bounds {
	b := defaultBounds
	mod(&b)
	return b
}

// A client pipelining more requests than the bound is read no further
// while the bound is reached: the handler holds exactly the bound, a request
// sent after them (echo, which does not block) is not handled meanwhile, and
// once they are released every request gets its result, never an error.
// Both bounds (the count and the bytes) push back the same way.
func TestBackPressure(t *testing.T) {
	const blocks, bound = 10, 3
	// Each block line is padded to a little over 1000 bytes.
	pad := strings.Repeat("x", 1000)
	for _, tc := range []struct {
		name   string
		bounds bounds
	}{
		{"requests", small(func(b *bounds) { b.inFlight = bound })},
		{"bytes", small(func(b *bounds) { b.inFlightBytes = bound * 1000 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newFakeHandler()
			path := startBounded(t, h, nil, tc.bounds)
			nc, err := Dial(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			nc.SetDeadline(time.Now().Add(testTimeout))
			var burst strings.Builder
			for i := 1; i <= blocks; i++ {
				fmt.Fprintf(&burst, `{"jsonrpc":"2.0","id":%d,"method":"block","params":{"pad":%q}}`+"\n", i, pad)
			}
			burst.WriteString(`{"jsonrpc":"2.0","id":"echo","method":"echo","params":{}}` + "\n")
			go nc.Write([]byte(burst.String()))

			waitFor(t, "the handler to hold the bound", func() bool {
				h.mu.Lock()
				defer h.mu.Unlock()
				return h.blocked >= bound
			})
			// Give a server that ignores its bound time to read on; one that
			// keeps it never can.
			time.Sleep(100 * time.Millisecond)
			h.mu.Lock()
			blocked, handled := h.blocked, slices.Clone(h.handled)
			h.mu.Unlock()
			if blocked != bound || slices.Contains(handled, "echo") {
				t.Fatalf("with %d requests held, %d are in the handler and it saw %v: the server read past its bound", bound, blocked, handled)
			}

			go func() {
				for range blocks {
					h.release <- struct{}{}
				}
			}()
			br := bufio.NewReader(nc)
			for i := range blocks + 1 {
				if a := readAnswer(t, br); a.Result == nil || a.Error.Code != 0 {
					t.Fatalf("answer %d is not a result: %+v", i, a)
				}
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.maxBlocked > bound {
				t.Errorf("%d requests were handled at once, want at most %d", h.maxBlocked, bound)
			}
		})
	}
}

// waitFor polls cond until it holds, failing after testTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// One connection more than the bound is refused with too_many_connections
// before a byte of it is read, and reported; once a connection has closed,
// a new one is admitted again.
func TestConnectionLimit(t *testing.T) {
	h := newFakeHandler()
	path := startBounded(t, h, nil, small(func(b *bounds) { b.conns = 2 }))
	ctx := context.Background()
	var held []*Client
	for range 2 {
		c, err := DialClient(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := c.Call(ctx, "echo", nil, nil); err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}

	// On the wire: one JSON-RPC error for no request, then the end.
	nc, err := Dial(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}` + "\n"))
	nc.SetReadDeadline(time.Now().Add(testTimeout))
	br := bufio.NewReader(nc)
	resp := readAnswer(t, br)
	if string(resp.ID) != "null" || resp.Error.Code != protocol.RPCToolError || resp.Error.Data.Code != protocol.CodeTooManyConnections ||
		resp.Error.Data.Outcome != protocol.OutcomeNotStarted || resp.Error.Data.Recovery == "" {
		t.Fatalf("refusal %+v", resp)
	}
	if rest, err := br.ReadBytes('\n'); err == nil {
		t.Fatalf("the refused connection answered %s", rest)
	}

	// Through the client: the call fails with the refusal itself.
	c, err := DialClient(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Call(ctx, "echo", nil, nil)
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != protocol.CodeTooManyConnections || errors.Is(err, ErrClosed) {
		t.Fatalf("call over the limit: %v, want too_many_connections", err)
	}
	c.Close()

	// The host reports a refusal just after writing it and closing, so
	// the client can see it first: waited for.
	waitFor(t, "both refusals to be reported", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.overLimit) >= 2
	})
	h.mu.Lock()
	handled, overLimit, opened := len(h.handled), len(h.overLimit), h.opened
	h.mu.Unlock()
	if handled != 2 || overLimit != 2 || opened != 2 {
		t.Fatalf("handled %d requests, opened %d, reported %d refusals; want 2, 2, 2", handled, opened, overLimit)
	}

	held[0].Close()
	<-h.closed
	deadline := time.Now().Add(testTimeout)
	for {
		// The place is given back just after Closed returns.
		c, err := DialClient(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Call(ctx, "echo", nil, nil)
		c.Close()
		if err == nil {
			break
		}
		if !errors.As(err, &pe) || pe.Code != protocol.CodeTooManyConnections || time.Now().After(deadline) {
			t.Fatalf("after a connection closed: %v", err)
		}
	}
}

// A connection with nothing in flight that sends nothing for the idle
// timeout is told connection_idle and closed; a request that takes longer
// than the timeout is not cut; the client's next call is ErrClosed, so
// that its owner dials again.
func TestIdleConnectionClosed(t *testing.T) {
	h := newFakeHandler()
	const idle = 50 * time.Millisecond
	path := startBounded(t, h, nil, small(func(b *bounds) { b.idle = idle }))
	ctx := context.Background()
	c, err := DialClient(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		time.Sleep(4 * idle) // in flight for longer than the idle timeout
		h.release <- struct{}{}
	}()
	var got string
	if err := c.Call(ctx, "block", nil, &got); err != nil || got != "released" {
		t.Fatalf("a request in flight past the idle timeout: %q, %v", got, err)
	}
	select {
	case <-c.Done():
	case <-time.After(testTimeout):
		t.Fatal("the idle connection was not closed")
	}
	c.mu.Lock()
	f := c.farewell
	c.mu.Unlock()
	if f == nil || f.Code != protocol.CodeConnectionIdle || f.Outcome != protocol.OutcomeNotStarted || f.Recovery == "" {
		t.Fatalf("farewell %+v, want connection_idle", f)
	}
	if err := c.Call(ctx, "echo", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after the idle close: %v, want ErrClosed", err)
	}
	<-h.closed
}

// A request the host never read when it said farewell is not lost: after
// connection_idle it is ErrClosed (send it again), after
// too_many_connections it fails with the refusal. Without a farewell the
// answer is ErrLost (it may have run).
func TestFarewellTellsWhatRan(t *testing.T) {
	for _, tc := range []struct {
		name     string
		farewell string
		check    func(error) bool
	}{
		{"idle", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"idle","data":{"code":"connection_idle","message":"idle","recovery":"r","outcome":"not_started"}}}`,
			func(err error) bool { return errors.Is(err, ErrClosed) }},
		{"over limit", `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"full","data":{"code":"too_many_connections","message":"full","recovery":"r","outcome":"not_started"}}}`,
			func(err error) bool {
				var pe *protocol.Error
				return errors.As(err, &pe) && pe.Code == protocol.CodeTooManyConnections && !errors.Is(err, ErrClosed)
			}},
		{"other error for no request", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"too big","data":{"code":"message_too_large","message":"m","recovery":"r","outcome":"not_started"}}}`,
			func(err error) bool { return errors.Is(err, ErrLost) }},
		{"none", ``, func(err error) bool { return errors.Is(err, ErrLost) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer server.Close()
			c := newClient(client, nil)
			defer c.Close()
			go func() {
				// The request arrives; the host answers with its farewell
				// (if any) and closes.
				bufio.NewReader(server).ReadBytes('\n')
				if tc.farewell != "" {
					server.Write([]byte(tc.farewell + "\n"))
				}
				server.Close()
			}()
			err := c.Call(context.Background(), "echo", nil, nil)
			if !tc.check(err) {
				t.Fatalf("call: %v", err)
			}
		})
	}
}

// A client that sends requests and never reads their answers has its
// connection closed once a write has waited for the write timeout, which
// frees the handlers it held.
func TestUnreadAnswersEndTheConnection(t *testing.T) {
	h := newFakeHandler()
	path := startBounded(t, h, nil, small(func(b *bounds) { b.write = 50 * time.Millisecond }))
	nc, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// Each echo answers with its ~64 KiB params: a few fill the socket.
	pad := strings.Repeat("x", 64<<10)
	go func() {
		for i := range 64 {
			if _, err := fmt.Fprintf(nc, `{"jsonrpc":"2.0","id":%d,"method":"echo","params":{"pad":%q}}`+"\n", i, pad); err != nil {
				return
			}
		}
	}()
	select {
	case <-h.closed:
	case <-time.After(testTimeout):
		t.Fatal("a connection that never reads its answers stayed open")
	}
}

// At the limit a new connection ends the connection idle longest (at
// least minIdle) instead of being refused: its client learns
// connection_idle (ErrClosed: nothing it sends there runs) while the
// others keep working; connections with a request in flight are never
// ended for room, so with every one busy the newcomer is refused.
func TestIdlestConnectionMakesRoom(t *testing.T) {
	h := newFakeHandler()
	path := startBounded(t, h, nil, small(func(b *bounds) { b.conns, b.minIdle = 2, 50*time.Millisecond }))
	ctx := context.Background()
	dial := func() *Client {
		t.Helper()
		c, err := DialClient(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	call := func(c *Client, method string) error { return c.Call(ctx, method, nil, nil) }
	oldest, fresher := dial(), dial()
	if err := call(oldest, "echo"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := call(fresher, "echo"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond) // both past minIdle, oldest the longer

	newcomer := dial()
	if err := call(newcomer, "echo"); err != nil {
		t.Fatalf("the newcomer was not given room: %v", err)
	}
	<-h.closed
	if err := call(oldest, "echo"); !errors.Is(err, ErrClosed) {
		t.Fatalf("the connection idle longest answered %v, want ErrClosed (connection_idle)", err)
	}
	if err := call(fresher, "echo"); err != nil {
		t.Fatalf("a connection that was not evicted failed: %v", err)
	}

	// Both places busy: the next newcomer is refused, nobody is cut.
	time.Sleep(60 * time.Millisecond)
	busy := make(chan error, 2)
	for _, c := range []*Client{fresher, newcomer} {
		go func() { busy <- call(c, "block") }()
	}
	waitFor(t, "both connections to be busy", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.blocked == 2
	})
	var pe *protocol.Error
	if err := call(dial(), "echo"); !errors.As(err, &pe) || pe.Code != protocol.CodeTooManyConnections {
		t.Fatalf("a newcomer with every connection busy: %v, want too_many_connections", err)
	}
	h.release <- struct{}{}
	h.release <- struct{}{}
	for range 2 {
		if err := <-busy; err != nil {
			t.Fatalf("a busy connection was cut: %v", err)
		}
	}
}

// A client that goes away while its requests wait behind back-pressure
// does not have them run: the first answer that cannot be written ends
// the connection's context, and the reading stops.
func TestGoneClientsQueuedRequestsDoNotRun(t *testing.T) {
	h := newFakeHandler()
	path := startBounded(t, h, nil, small(func(b *bounds) { b.inFlight = 1 }))
	nc, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var burst strings.Builder
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&burst, `{"jsonrpc":"2.0","id":%d,"method":"block","params":{}}`+"\n", i)
	}
	nc.Write([]byte(burst.String()))
	waitFor(t, "the first request to be handled", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.blocked == 1
	})
	nc.Close()
	h.release <- struct{}{}
	<-h.closed
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.handled) != 1 {
		t.Fatalf("%d requests handled after the client left, want only the first: %v", len(h.handled), h.handled)
	}
}
