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
	client, server := net.Pipe()
	defer server.Close()
	file := filepath.Join(t.TempDir(), "capability")
	c := newClient(client, func(capability string) error { return os.WriteFile(file, []byte(capability), 0o600) })
	defer c.Close()
	h := newCapabilityHost(t, server)

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

// A capability that cannot be kept is never confirmed; a call the host
// refused meanwhile is released with the refusal rather than wait for its
// own context to end.
func TestCallWaitingOnAFailedConfirmationIsReleased(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	c := newClient(client, func(string) error { return errors.New("disk full") })
	defer c.Close()
	h := newCapabilityHost(t, server)

	cancelledCallGetsCapability(t, c, h)
	err := callServed(t, c, h)
	if pe, ok := errors.AsType[*protocol.Error](err); !ok || pe.Code != protocol.CodeCapabilityUnconfirmed || pe.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("the next call: %v, want capability_unconfirmed, not_started", err)
	}
	if slices.Contains(h.methods, protocol.MethodCapabilityConfirm) {
		t.Errorf("the host saw %v: a capability that was not kept was confirmed", h.methods)
	}
}
