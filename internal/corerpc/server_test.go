package corerpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// fakeHandler records what the server passed to the host side.
type fakeHandler struct {
	mu        sync.Mutex
	handled   []string
	refused   []string
	overLimit []*protocol.Error
	rejected  []protocol.ErrorCode
	opened    int
	closed    chan struct{}
	// release lets one "block" request finish.
	release chan struct{}
	// blocked and maxBlocked count "block" requests in the handler now
	// and at most.
	blocked, maxBlocked int
}

func newFakeHandler() *fakeHandler {
	return &fakeHandler{closed: make(chan struct{}, 64), release: make(chan struct{})}
}

func (h *fakeHandler) Opened(*Conn) { h.mu.Lock(); h.opened++; h.mu.Unlock() }
func (h *fakeHandler) Closed(*Conn) { h.closed <- struct{}{} }
func (h *fakeHandler) Handle(ctx context.Context, c *Conn, req *Request) (any, error) {
	h.mu.Lock()
	h.handled = append(h.handled, req.Method)
	h.mu.Unlock()
	switch req.Method {
	case "block":
		h.mu.Lock()
		h.blocked++
		h.maxBlocked = max(h.maxBlocked, h.blocked)
		h.mu.Unlock()
		defer func() {
			h.mu.Lock()
			h.blocked--
			h.mu.Unlock()
		}()
		select {
		case <-h.release:
			return "released", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case "echo":
		return map[string]any{"conn": c.ID(), "params": req.Params}, nil
	case "seq":
		return req.Seq, nil
	case "panic":
		var m map[string]int
		m["a handler bug"]++ // a nil map write: a runtime panic like the host's nil dereference
	case "typed":
		var p struct {
			N int `json:"n"`
		}
		if err := DecodeParams(req.Params, &p); err != nil {
			return nil, err
		}
		return p, nil
	}
	return nil, protocol.NewError(protocol.CodeUnknownMethod, protocol.OutcomeNotStarted, "no such method", "Use echo.")
}
func (h *fakeHandler) Refused(peer Cred, reason string) {
	h.mu.Lock()
	h.refused = append(h.refused, reason)
	h.mu.Unlock()
}
func (h *fakeHandler) RefusedOverLimit(_ Cred, e *protocol.Error) {
	h.mu.Lock()
	h.overLimit = append(h.overLimit, e)
	h.mu.Unlock()
}
func (h *fakeHandler) Rejected(_ *Conn, _ json.RawMessage, e *protocol.Error) {
	h.mu.Lock()
	h.rejected = append(h.rejected, e.Code)
	h.mu.Unlock()
}

func startServer(t *testing.T, h Handler, creds func(net.Conn) (Cred, error)) string {
	t.Helper()
	return startBounded(t, h, creds, defaultBounds)
}

// startBounded is startServer with the server's bounds replaced.
func startBounded(t *testing.T, h Handler, creds func(net.Conn) (Cred, error), b bounds) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "corerpc") // short path: sun_path is ~108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o700)
	path := filepath.Join(dir, "core.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(h, SelfUID(), log.New(io.Discard, "", 0))
	if creds != nil {
		s.creds = creds
	}
	s.bounds = b
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	t.Cleanup(func() { cancel(); <-done })
	return path
}

func TestSocketModeAndOwnUIDAccepted(t *testing.T) {
	h := newFakeHandler()
	path := startServer(t, h, nil) // the real SO_PEERCRED path
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %o, want 0600", fi.Mode().Perm())
	}
	c, err := DialClient(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out struct {
		Conn   string          `json:"conn"`
		Params json.RawMessage `json:"params"`
	}
	if err := c.Call(context.Background(), "echo", map[string]int{"a": 1}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Conn, "conn_") || string(out.Params) != `{"a":1}` {
		t.Fatalf("unexpected echo %+v", out)
	}
	var other struct{ Conn string }
	c2, err := DialClient(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Call(context.Background(), "echo", nil, &other); err != nil {
		t.Fatal(err)
	}
	if other.Conn == out.Conn {
		t.Fatal("two connections got the same host-generated id")
	}
}

func TestForeignUIDRefusedUnread(t *testing.T) {
	h := newFakeHandler()
	foreign := func(net.Conn) (Cred, error) { return Cred{UID: SelfUID() + 1000, PID: 4242}, nil }
	path := startServer(t, h, foreign)
	nc, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}` + "\n"))
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	// EOF or a reset (the host closed with our request unread): either way
	// not one byte of answer.
	if n, err := nc.Read(make([]byte, 64)); n != 0 || err == nil || os.IsTimeout(err) {
		t.Fatalf("foreign peer got %d bytes / %v, want the connection closed unanswered", n, err)
	}
	<-waitRefused(h)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.handled) != 0 || h.opened != 0 {
		t.Fatalf("a foreign peer reached the handler: handled=%v opened=%d", h.handled, h.opened)
	}
	if len(h.refused) != 1 || !strings.Contains(h.refused[0], "uid") {
		t.Fatalf("refusal not reported: %v", h.refused)
	}
}

func waitRefused(h *fakeHandler) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for {
			h.mu.Lock()
			n := len(h.refused)
			h.mu.Unlock()
			if n > 0 {
				close(ch)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return ch
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name     string
		line     string
		wantCode protocol.ErrorCode
		wantNum  int
		wantID   string
	}{
		{"not json", `{"jsonrpc":`, protocol.CodeParseError, protocol.RPCParseError, "null"},
		{"two objects", `{} {}`, protocol.CodeParseError, protocol.RPCParseError, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, protocol.CodeInvalidRequest, protocol.RPCInvalidRequest, "null"},
		{"missing version", `{"id":7,"method":"echo"}`, protocol.CodeInvalidRequest, protocol.RPCInvalidRequest, "7"},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"echo"}`, protocol.CodeInvalidRequest, protocol.RPCInvalidRequest, "7"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"echo"}`, protocol.CodeInvalidRequest, protocol.RPCInvalidRequest, "null"},
		{"missing method", `{"jsonrpc":"2.0","id":"x"}`, protocol.CodeInvalidRequest, protocol.RPCInvalidRequest, `"x"`},
		{"method not string", `{"jsonrpc":"2.0","id":3,"method":5}`, protocol.CodeParseError, protocol.RPCParseError, "null"},
		{"positional params", `{"jsonrpc":"2.0","id":3,"method":"echo","params":[1]}`, protocol.CodeInvalidParams, protocol.RPCInvalidParams, "3"},
		{"unknown method", `{"jsonrpc":"2.0","id":4,"method":"nope"}`, protocol.CodeUnknownMethod, protocol.RPCMethodNotFound, "4"},
		{"wrong type", `{"jsonrpc":"2.0","id":5,"method":"typed","params":{"n":"five"}}`, protocol.CodeInvalidParams, protocol.RPCInvalidParams, "5"},
		{"unknown field", `{"jsonrpc":"2.0","id":6,"method":"typed","params":{"n":1,"x":2}}`, protocol.CodeInvalidParams, protocol.RPCInvalidParams, "6"},
		{"oversize", `{"jsonrpc":"2.0","id":8,"method":"echo","params":{"s":"` + strings.Repeat("a", MaxLine) + `"}}`, protocol.CodeMessageTooBig, protocol.RPCParseError, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newFakeHandler()
			path := startServer(t, h, nil)
			nc, err := Dial(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			go nc.Write([]byte(tc.line + "\n"))
			nc.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp := readAnswer(t, bufio.NewReader(nc))
			if resp.Error.Data.Code != tc.wantCode || resp.Error.Code != tc.wantNum || string(resp.ID) != tc.wantID {
				t.Fatalf("got code %s/%d id %s, want %s/%d id %s", resp.Error.Data.Code, resp.Error.Code, resp.ID, tc.wantCode, tc.wantNum, tc.wantID)
			}
			if resp.Error.Data.Recovery == "" || resp.Error.Data.Outcome != protocol.OutcomeNotStarted {
				t.Fatalf("error lacks recovery or not_started outcome: %+v", resp.Error.Data)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			for _, m := range h.handled {
				if m == "echo" {
					t.Fatalf("a refused request reached the handler: %v", h.handled)
				}
			}
		})
	}
}

// answer is one response line as the tests read it off the wire.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  struct {
		Code int            `json:"code"`
		Data protocol.Error `json:"data"`
	} `json:"error"`
}

// readAnswer reads and decodes the next response line.
func readAnswer(t *testing.T, br *bufio.Reader) answer {
	t.Helper()
	line, err := br.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var a answer
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("response %s: %v", line, err)
	}
	return a
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"status","params":{}}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"x","params":null}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		req, id, perr := decode(line)
		if (req == nil) == (perr == nil) {
			t.Fatalf("exactly one of request and error must be set: %v %v", req, perr)
		}
		if !json.Valid(id) {
			t.Fatalf("recovered id %q is not JSON", id)
		}
		if req != nil && (req.Method == "" || len(req.Params) == 0 || req.Params[0] != '{') {
			t.Fatalf("accepted an invalid request: %+v", req)
		}
	})
}

// A handler that panics answers internal_error, outcome unknown, and the
// host goes on serving that connection and others (issue 9 review: one
// agent's malformed step once killed the host and every agent's calls).
func TestHandlerPanicIsAnErrorNotACrash(t *testing.T) {
	h := newFakeHandler()
	path := startServer(t, h, nil)
	c, err := DialClient(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out json.RawMessage
	err = c.Call(context.Background(), "panic", nil, &out)
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != protocol.CodeInternal || pe.Outcome != protocol.OutcomeUnknown {
		t.Fatalf("panicking handler answered %v, want internal_error/unknown", err)
	}
	if err := c.Call(context.Background(), "echo", map[string]any{"after": 1}, &out); err != nil {
		t.Fatalf("the connection stopped serving after a panic: %v", err)
	}
}
