package corerpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// capabilityHost plays the host's side of the capability barrier on one
// connection (internal/host/capability.go): after an answer that carried a
// capability it refuses everything but capability_confirm until that comes.
type capabilityHost struct {
	t           *testing.T
	conn        net.Conn
	reqs        chan Request
	methods     []string
	unconfirmed bool
}

func newCapabilityHost(t *testing.T, conn net.Conn) *capabilityHost {
	h := &capabilityHost{t: t, conn: conn, reqs: make(chan Request, 16)}
	go func() {
		br := bufio.NewReader(conn)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			req, _, perr := decode(line)
			if perr != nil {
				t.Errorf("the client sent %q: %v", line, perr)
				return
			}
			h.reqs <- *req
		}
	}()
	return h
}

func (h *capabilityHost) write(resp response) {
	h.t.Helper()
	line, err := json.Marshal(resp)
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.conn.Write(append(line, '\n')); err != nil {
		h.t.Fatal(err)
	}
}

// next reads the next request, within a bound so that a client that sends
// nothing fails the test rather than hang it.
func (h *capabilityHost) next() Request {
	h.t.Helper()
	select {
	case req := <-h.reqs:
		h.methods = append(h.methods, req.Method)
		return req
	case <-time.After(10 * time.Second):
		h.t.Fatalf("no request; the host saw %v", h.methods)
		return Request{}
	}
}

// answer answers req as the host would.
func (h *capabilityHost) answer(req Request) {
	switch {
	case req.Method == protocol.MethodCapabilityConfirm:
		h.unconfirmed = false
		h.write(response{JSONRPC: "2.0", ID: req.ID, Result: protocol.CapabilityConfirmResult{Confirmed: true}})
	case h.unconfirmed:
		h.write(errorResponse(req.ID, protocol.Fail(protocol.CodeCapabilityUnconfirmed, "not confirmed yet")))
	default:
		h.write(response{JSONRPC: "2.0", ID: req.ID, Result: map[string]bool{"ran": true}})
	}
}

// cancelledCallGetsCapability makes a call whose context ends while the
// host works on it, then delivers its answer carrying capability "cap-1".
func cancelledCallGetsCapability(t *testing.T, c *Client, h *capabilityHost) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, protocol.MethodOpen, nil, nil) }()
	req := h.next()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call: %v", err)
	}
	h.unconfirmed = true
	h.write(response{JSONRPC: "2.0", ID: req.ID, Result: map[string]bool{"ran": true}, Capability: "cap-1"})
}

// callServed makes one more call and serves the connection until it ends.
func callServed(t *testing.T, c *Client, h *capabilityHost) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, protocol.MethodTabs, nil, nil) }()
	for {
		select {
		case err := <-errc:
			return err
		case req := <-h.reqs:
			h.methods = append(h.methods, req.Method)
			h.answer(req)
		}
	}
}

// A capability whose call's context ended before the answer is still kept
// and confirmed: the connection does not refuse (capability_unconfirmed)
// every later call.
func TestCapabilityOfACancelledCallIsKeptAndConfirmed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "capability")
	c, h := pipeClient(t, func(capability string) error { return os.WriteFile(file, []byte(capability), 0o600) })

	cancelledCallGetsCapability(t, c, h)
	if err := callServed(t, c, h); err != nil {
		t.Fatalf("the next call: %v (the host saw %v)", err, h.methods)
	}
	if got, err := os.ReadFile(file); err != nil || string(got) != "cap-1" {
		t.Errorf("kept %q (%v), want cap-1", got, err)
	}
	if !slices.Contains(h.methods, protocol.MethodCapabilityConfirm) {
		t.Errorf("the host saw %v, no capability_confirm", h.methods)
	}
}

// A capability that cannot be kept is never confirmed, and the connection
// is closed: the host would refuse everything more on it. The next call is
// ErrClosed (nothing ran), so that the adapter dials again, resumes with
// the capability it kept and sends it once more (found in review: the
// connection refused every later call until the adapter restarted).
func TestAFailedKeepClosesTheConnection(t *testing.T) {
	c, h := pipeClient(t, func(string) error { return errors.New("disk full") })

	cancelledCallGetsCapability(t, c, h)
	err := callServed(t, c, h)
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("the next call: %v, want ErrClosed", err)
	}
	if slices.Contains(h.methods, protocol.MethodCapabilityConfirm) {
		t.Errorf("the host saw %v: a capability that was not kept was confirmed", h.methods)
	}
	ended(t, c)
}

// A confirmation that times out closes the connection; a call the host
// refused while it was under way is ErrClosed (send it again elsewhere),
// not the refusal.
func TestARefusedCallWaitingOnATimedOutConfirmIsClosed(t *testing.T) {
	c, h := pipeClient(t, func(string) error { return nil })
	c.confirmWait = 200 * time.Millisecond

	cancelledCallGetsCapability(t, c, h)
	if req := h.next(); req.Method != protocol.MethodCapabilityConfirm {
		t.Fatalf("the client sent %s, want capability_confirm", req.Method)
	}
	// The confirm is never answered.
	errc := make(chan error, 1)
	go func() { errc <- c.Call(context.Background(), protocol.MethodTabs, nil, nil) }()
	h.answer(h.next()) // refused: capability_unconfirmed
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("the refused call: %v, want ErrClosed", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("the refused call never returned")
	}
}

// The go-sdk runs tool calls in parallel: a call the host refused because
// a parallel one just made the task, before the answer carrying the
// capability arrived, waits for that capability's confirmation and is sent
// once more, on a fresh connection and after an earlier capability was
// confirmed alike (found in review: it failed with a refusal the agent
// could not act on).
func TestAParallelCallRefusedBeforeTheCapabilityWaitsForIt(t *testing.T) {
	for _, earlier := range []bool{false, true} {
		t.Run(map[bool]string{false: "fresh", true: "after an earlier capability"}[earlier], func(t *testing.T) {
			c, h := pipeClient(t, func(string) error { return nil })
			if earlier {
				cancelledCallGetsCapability(t, c, h)
				h.answer(h.next()) // the confirm
				waitFor(t, "the first confirmation", func() bool {
					c.mu.Lock()
					defer c.mu.Unlock()
					return c.settled != nil && c.settled.finished()
				})
			}
			open, tabs, opened, listed := openAndTabs(t, c, h)
			// The open made the task: the host refuses the tabs before it
			// answers the open.
			h.unconfirmed = true
			h.answer(tabs)
			// A client that sends the refused call again at once is
			// refused again.
			select {
			case req := <-h.reqs:
				h.methods = append(h.methods, req.Method)
				h.answer(req)
			case <-time.After(300 * time.Millisecond):
			}
			h.write(response{JSONRPC: "2.0", ID: open.ID, Result: map[string]bool{"ran": true}, Capability: "cap-2"})
			for opened != nil || listed != nil {
				select {
				case err := <-opened:
					if err != nil {
						t.Errorf("the open: %v", err)
					}
					opened = nil
				case err := <-listed:
					if err != nil {
						t.Errorf("the parallel tabs: %v (the host saw %v)", err, h.methods)
					}
					listed = nil
				case req := <-h.reqs:
					h.methods = append(h.methods, req.Method)
					h.answer(req)
				}
			}
		})
	}
}

// A confirm that fails after the host answered (here the host closed the
// connection) is never ErrClosed for the call that brought the capability:
// that call ran, and must not be sent again (found in review: the adapter
// sent browser_open once more).
func TestAConfirmFailingAfterTheAnswerIsLost(t *testing.T) {
	client, server := net.Pipe()
	hostGone := make(chan struct{})
	c := newClient(client, func(string) error { <-hostGone; return nil })
	defer c.Close()
	h := newCapabilityHost(t, server)

	errc := make(chan error, 1)
	go func() { errc <- c.Call(context.Background(), protocol.MethodOpen, nil, nil) }()
	req := h.next()
	h.write(response{JSONRPC: "2.0", ID: req.ID, Result: map[string]bool{"ran": true}, Capability: "cap-1"})
	server.Close()
	<-c.Done()
	close(hostGone)
	select {
	case err := <-errc:
		if !errors.Is(err, ErrLost) || errors.Is(err, ErrClosed) {
			t.Fatalf("the call that ran: %v, want ErrLost and not ErrClosed", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("the call never returned")
	}
}

// keep is bounded with the confirmation: a hung write (an fsync that never
// returns) does not hang the call whose answer carried the capability.
func TestAHungKeepIsBounded(t *testing.T) {
	hung := make(chan struct{})
	defer close(hung)
	c, h := pipeClient(t, func(string) error { <-hung; return nil })
	c.confirmWait = 200 * time.Millisecond

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, protocol.MethodOpen, nil, nil) }()
	req := h.next()
	h.write(response{JSONRPC: "2.0", ID: req.ID, Result: map[string]bool{"ran": true}, Capability: "cap-1"})
	if err := <-errc; !errors.Is(err, ErrLost) {
		t.Fatalf("the call whose capability could not be kept: %v, want ErrLost within the bound", err)
	}
	ended(t, c)
}

// A connection whose capability could not be kept sends nothing more but
// ends only once the answers still due came: a parallel call the host
// refused is told so (ErrClosed: send it again elsewhere) rather than lost
// with the connection (ErrLost: it may have run).
func TestAFailedKeepWaitsForTheRefusalsStillDue(t *testing.T) {
	c, h := pipeClient(t, func(string) error { return errors.New("disk full") })

	open, tabs, opened, listed := openAndTabs(t, c, h)
	h.unconfirmed = true
	h.write(response{JSONRPC: "2.0", ID: open.ID, Result: map[string]bool{"ran": true}, Capability: "cap-1"})
	if err := <-opened; !errors.Is(err, ErrLost) {
		t.Fatalf("the open, whose capability was not kept: %v, want ErrLost", err)
	}
	if err := c.Call(context.Background(), protocol.MethodTabs, nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("a call on the retired connection: %v, want ErrClosed", err)
	}
	h.answer(tabs) // refused: capability_unconfirmed
	if err := <-listed; !errors.Is(err, ErrClosed) {
		t.Fatalf("the parallel tabs, refused: %v, want ErrClosed", err)
	}
	ended(t, c)
	if slices.Contains(h.methods, protocol.MethodCapabilityConfirm) || len(h.methods) != 2 {
		t.Errorf("the host saw %v, want the open and the tabs only", h.methods)
	}
}

// pipeClient is a client with keep, connected to a capabilityHost.
func pipeClient(t *testing.T, keep func(string) error) (*Client, *capabilityHost) {
	t.Helper()
	client, server := net.Pipe()
	t.Cleanup(func() { server.Close() })
	c := newClient(client, keep)
	t.Cleanup(func() { c.Close() })
	return c, newCapabilityHost(t, server)
}

// ended waits for c's connection to end.
func ended(t *testing.T, c *Client) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(testTimeout):
		t.Fatal("the connection is still open")
	}
}

// openAndTabs starts browser_open, then browser_tabs in parallel, and
// hands back the two requests as the host read them and where each call's
// error will come.
func openAndTabs(t *testing.T, c *Client, h *capabilityHost) (open, tabs Request, opened, listed <-chan error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	o, l := make(chan error, 1), make(chan error, 1)
	go func() { o <- c.Call(ctx, protocol.MethodOpen, nil, nil) }()
	open = h.next()
	go func() { l <- c.Call(ctx, protocol.MethodTabs, nil, nil) }()
	return open, h.next(), o, l
}
