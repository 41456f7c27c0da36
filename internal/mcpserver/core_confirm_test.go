package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// scriptedCore is a Core peer written line by line, for orders the real
// server cannot be made to keep: it records each connection's requests and
// lets a test answer them when it chooses.
type scriptedCore struct {
	t     *testing.T
	reqs  chan scriptedReq
	mu    sync.Mutex
	conns int
}

type scriptedReq struct {
	conn   int
	nc     net.Conn
	id     json.RawMessage
	method string
}

func serveScripted(t *testing.T, socket string) *scriptedCore {
	t.Helper()
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	lc := &scriptedCore{t: t, reqs: make(chan scriptedReq, 64)}
	go func() {
		for {
			nc, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { nc.Close() })
			lc.mu.Lock()
			lc.conns++
			n := lc.conns
			lc.mu.Unlock()
			go func() {
				br := bufio.NewReader(nc)
				for {
					line, err := br.ReadBytes('\n')
					if err != nil {
						return
					}
					var r struct {
						ID     json.RawMessage `json:"id"`
						Method string          `json:"method"`
					}
					json.Unmarshal(line, &r)
					lc.reqs <- scriptedReq{conn: n, nc: nc, id: r.ID, method: r.Method}
				}
			}()
		}
	}()
	return lc
}

// next is the next request, hello answered on the way.
func (lc *scriptedCore) next() scriptedReq {
	lc.t.Helper()
	for {
		select {
		case r := <-lc.reqs:
			if r.method == protocol.MethodHello {
				lc.answer(r, protocol.HelloResult{ConnectionID: "conn_test"}, "")
				continue
			}
			return r
		case <-time.After(10 * time.Second):
			lc.t.Fatal("no request came")
			return scriptedReq{}
		}
	}
}

func (lc *scriptedCore) answer(r scriptedReq, result any, capability string) {
	lc.t.Helper()
	resp := map[string]any{"jsonrpc": "2.0", "id": r.id, "result": result}
	if capability != "" {
		resp["capability"] = capability
	}
	lc.write(r, resp)
}

func (lc *scriptedCore) refuse(r scriptedReq, e *protocol.Error) {
	lc.t.Helper()
	lc.write(r, map[string]any{"jsonrpc": "2.0", "id": r.id, "error": map[string]any{"code": -32000, "message": e.Message, "data": e}})
}

func (lc *scriptedCore) write(r scriptedReq, resp map[string]any) {
	lc.t.Helper()
	b, err := json.Marshal(resp)
	if err != nil {
		lc.t.Fatal(err)
	}
	// A write to a connection the client ended is lost, as the host's is.
	r.nc.Write(append(b, '\n'))
}

// The go-sdk runs tool calls in parallel: browser_tabs, refused because
// the parallel browser_open just made the task, waits for the capability
// the open's answer carries and is sent again once it is confirmed; when
// the capability cannot be kept, the connection is given up and the tabs
// is sent once on a new one (found in review: it failed with the refusal,
// and after a failed keep every later call did until a restart).
func TestAParallelCallRefusedWhileTheTaskIsMade(t *testing.T) {
	for _, keepFails := range []bool{false, true} {
		t.Run(map[bool]string{false: "kept", true: "keep fails"}[keepFails], func(t *testing.T) {
			lc, srv := scriptedServer(t, keepFails)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			opened, listed := make(chan *protocol.Error, 1), make(chan *protocol.Error, 1)
			go func() { opened <- srv.core.call(ctx, protocol.MethodOpen, nil, nil, protocol.OutcomeUnknown) }()
			open := lc.next()
			go func() { listed <- srv.core.call(ctx, protocol.MethodTabs, nil, nil, protocol.OutcomeNotStarted) }()
			tabs := lc.next()
			if open.method != protocol.MethodOpen || tabs.method != protocol.MethodTabs {
				t.Fatalf("the Core saw %s then %s", open.method, tabs.method)
			}
			lc.refuse(tabs, protocol.Fail(protocol.CodeCapabilityUnconfirmed, "not confirmed yet"))
			// The refused tabs is not sent again before the capability came.
			select {
			case r := <-lc.reqs:
				t.Fatalf("the Core got %s (connection %d) before the open's answer", r.method, r.conn)
			case perr := <-listed:
				t.Fatalf("the parallel tabs returned before the open's answer: %v", perr)
			case <-time.After(300 * time.Millisecond):
			}
			lc.answer(open, map[string]any{}, "cap-1")
			tabsSeen := 0
			for opened != nil || listed != nil {
				select {
				case perr := <-opened:
					if keepFails {
						if perr == nil || perr.Outcome != protocol.OutcomeUnknown {
							t.Errorf("the open, whose capability was not kept: %v, want outcome unknown", perr)
						}
					} else if perr != nil {
						t.Errorf("the open: %v", perr)
					}
					opened = nil
				case perr := <-listed:
					if perr != nil {
						t.Errorf("the parallel tabs: %v", perr)
					}
					listed = nil
				case r := <-lc.reqs:
					switch r.method {
					case protocol.MethodHello:
						lc.answer(r, protocol.HelloResult{ConnectionID: "conn_test"}, "")
					case protocol.MethodCapabilityConfirm:
						lc.answer(r, protocol.CapabilityConfirmResult{Confirmed: true}, "")
					case protocol.MethodTabs:
						tabsSeen++
						if want := map[bool]int{false: 1, true: 2}[keepFails]; r.conn != want {
							t.Errorf("the tabs was sent again on connection %d, want %d", r.conn, want)
						}
						lc.answer(r, protocol.TabsResult{Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}, "")
					default:
						t.Errorf("the Core got %s", r.method)
						lc.refuse(r, protocol.Fail(protocol.CodeInternal, "unexpected"))
					}
				}
			}
			if tabsSeen != 1 {
				t.Errorf("the tabs was sent again %d times, want once", tabsSeen)
			}
		})
	}
}

// A cancelled call's answer carries a capability that cannot be kept: the
// connection is given up, and the next call is sent on a new one (found in
// review: the connection refused every later call until a restart).
func TestACapabilityNotKeptDoesNotStopLaterCalls(t *testing.T) {
	sc, srv := scriptedServer(t, true)

	cancelled, cancel := context.WithCancel(context.Background())
	opened := make(chan *protocol.Error, 1)
	go func() { opened <- srv.core.call(cancelled, protocol.MethodOpen, nil, nil, protocol.OutcomeUnknown) }()
	open := sc.next()
	cancel()
	<-opened
	sc.answer(open, map[string]any{}, "cap-1")

	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	listed := make(chan *protocol.Error, 1)
	go func() { listed <- srv.core.call(ctx, protocol.MethodTabs, nil, nil, protocol.OutcomeNotStarted) }()
	for {
		select {
		case perr := <-listed:
			if perr != nil {
				t.Fatalf("the call after a capability that was not kept: %v", perr)
			}
			return
		case r := <-sc.reqs:
			switch r.method {
			case protocol.MethodHello:
				sc.answer(r, protocol.HelloResult{ConnectionID: "conn_test"}, "")
			case protocol.MethodTabs:
				if r.conn == 1 {
					// The capability is unconfirmed there: the host refuses.
					sc.refuse(r, protocol.Fail(protocol.CodeCapabilityUnconfirmed, "not confirmed yet"))
					continue
				}
				sc.answer(r, protocol.TabsResult{Tabs: []protocol.TabInfo{}, Outcome: protocol.OutcomeObserved}, "")
			default:
				t.Errorf("the Core got %s", r.method)
				sc.refuse(r, protocol.Fail(protocol.CodeInternal, "unexpected"))
			}
		}
	}
}

// scriptedServer is an adapter whose Core is a scriptedCore; with
// keepFails its capability file cannot be written.
func scriptedServer(t *testing.T, keepFails bool) (*scriptedCore, *Server) {
	t.Helper()
	socket := socketPath(t)
	sc := serveScripted(t, socket)
	srv, err := New(socket, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.core.close)
	if keepFails {
		notADir := filepath.Join(t.TempDir(), "file")
		os.WriteFile(notADir, nil, 0o600)
		srv.core.caps.path = filepath.Join(notADir, "capability")
	}
	return sc, srv
}
