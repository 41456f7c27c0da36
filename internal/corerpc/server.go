package corerpc

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Conn is one accepted, authenticated Core connection.
type Conn struct {
	id   string
	peer Cred
	nc   net.Conn
	wmu  sync.Mutex
	// writeTimeout bounds one write (WriteTimeout; tests shrink it).
	writeTimeout time.Duration
}

// ID is the host-generated connection id; clients cannot choose it.
func (c *Conn) ID() string { return c.id }

// Peer is the verified OS credential of the connecting process.
func (c *Conn) Peer() Cred { return c.peer }

// write sends one response. A write that fails (the client stopped reading
// for writeTimeout, or went away) leaves the stream broken mid-line, so it
// closes the connection, which ends its reading and cancels its handlers.
func (c *Conn) write(r response) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	err := writeResponse(c.nc, r, c.writeTimeout)
	if err != nil {
		c.nc.Close()
	}
	return err
}

// writeResponse writes r as one line, giving up after timeout.
func writeResponse(nc net.Conn, r response, timeout time.Duration) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	nc.SetWriteDeadline(time.Now().Add(timeout))
	_, err = nc.Write(append(b, '\n'))
	return err
}

// Handler is the host side of Core RPC.
type Handler interface {
	// Opened is called once an authenticated connection is accepted.
	Opened(c *Conn)
	// Closed is called once after the connection ends.
	Closed(c *Conn)
	// Handle serves one request. It returns a result, or an error that is a
	// *protocol.Error (any other error becomes internal_error). Requests of
	// one connection may be handled concurrently.
	Handle(ctx context.Context, c *Conn, req *Request) (any, error)
	// Refused reports a peer whose OS user is not ours, or whose
	// credentials could not be read; it was disconnected unread.
	Refused(peer Cred, reason string)
	// RefusedOverLimit reports a peer of our user that was sent e
	// (too_many_connections) and disconnected unread, because the host
	// already serves MaxConnections.
	RefusedOverLimit(peer Cred, e *protocol.Error)
	// Rejected reports a request refused before it reached Handle
	// (malformed JSON-RPC, oversize line).
	Rejected(c *Conn, id json.RawMessage, e *protocol.Error)
}

// Server accepts Core connections on a listener.
type Server struct {
	handler Handler
	// creds reads the peer's credentials; tests replace it with a fake.
	creds   func(net.Conn) (Cred, error)
	selfUID int
	log     *log.Logger
	// bounds are limits.go's; tests shrink them.
	bounds bounds

	mu    sync.Mutex
	conns map[*Conn]struct{}
	wg    sync.WaitGroup
}

// bounds are the limits one Server enforces (limits.go).
type bounds struct {
	conns, inFlight, inFlightBytes int
	idle, write                    time.Duration
}

var defaultBounds = bounds{conns: MaxConnections, inFlight: MaxInFlight, inFlightBytes: MaxInFlightBytes, idle: IdleTimeout, write: WriteTimeout}

// NewServer returns a Server that admits peers running as selfUID.
func NewServer(h Handler, selfUID int, logger *log.Logger) *Server {
	return &Server{handler: h, creds: PeerCred, selfUID: selfUID, log: logger, bounds: defaultBounds, conns: map[*Conn]struct{}{}}
}

// Serve accepts connections until ctx ends or the listener fails. It closes
// the listener and every connection before returning.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	go func() {
		<-ctx.Done()
		l.Close()
		s.mu.Lock()
		for c := range s.conns {
			c.nc.Close()
		}
		s.mu.Unlock()
	}()
	for {
		nc, err := l.Accept()
		if err != nil {
			s.wg.Wait()
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("core rpc: accept: %w", err)
		}
		c := s.admit(nc)
		if c == nil {
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, c)
		}()
	}
}

// admit checks a new connection's peer before reading a byte of it: a
// foreign OS user is disconnected unanswered, and one more of ours than
// MaxConnections is told too_many_connections and disconnected. It runs on
// the accept loop, so a client connecting in a loop is answered at the
// pace of those checks. It returns the registered Conn, or nil.
func (s *Server) admit(nc net.Conn) *Conn {
	cred, err := s.creds(nc)
	if err != nil {
		nc.Close()
		s.handler.Refused(cred, "peer credentials unreadable: "+err.Error())
		return nil
	}
	if cred.UID != s.selfUID {
		nc.Close()
		s.handler.Refused(cred, fmt.Sprintf("peer runs as uid %d, the host as uid %d", cred.UID, s.selfUID))
		return nil
	}
	s.mu.Lock()
	if len(s.conns) >= s.bounds.conns {
		s.mu.Unlock()
		e := protocol.NewError(protocol.CodeTooManyConnections, protocol.OutcomeNotStarted,
			fmt.Sprintf("the AgentTab host already serves %d Core connections, its limit", s.bounds.conns),
			"Close Core clients you no longer use (each `agenttab mcp` and each HTTP MCP session holds one connection; an idle one is closed after "+s.bounds.idle.String()+"), then retry.")
		// A fresh socket's buffer takes one line without blocking.
		writeResponse(nc, errorResponse(json.RawMessage("null"), e), s.bounds.write)
		nc.Close()
		s.handler.RefusedOverLimit(cred, e)
		return nil
	}
	c := &Conn{id: newConnID(), peer: cred, nc: nc, writeTimeout: s.bounds.write}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	return c
}

// serveConn reads c's requests and handles each in its own goroutine, at
// most bounds.inFlight (and bounds.inFlightBytes) at once: at the bound it
// stops reading until one finishes, which pushes back on the client through
// the socket. A connection with nothing in flight that sends nothing for
// bounds.idle is told connection_idle and closed. c's place among the
// host's connections is given up only once Closed has run, so what a
// connection holds is bounded until it is released.
func (s *Server) serveConn(ctx context.Context, c *Conn) {
	nc := c.nc
	s.handler.Opened(c)
	fl := newFlight(nc, s.bounds)
	defer func() {
		fl.drain()
		s.handler.Closed(c)
		nc.Close()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()

	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	br := bufio.NewReaderSize(nc, 64<<10)
	for {
		fl.waitRoom()
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			e := protocol.NewError(protocol.CodeMessageTooBig, protocol.OutcomeNotStarted,
				fmt.Sprintf("a Core RPC message is limited to %d bytes", MaxLine),
				"Send smaller requests; the connection is closed because the stream cannot be resynchronised.")
			s.handler.Rejected(c, json.RawMessage("null"), e)
			c.write(errorResponse(json.RawMessage("null"), e))
			return
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The read deadline is only set while nothing is in flight
			// (newFlight, flight.end), so this is idleness, and no request of the
			// client's was read: whatever it sends now never runs.
			e := protocol.NewError(protocol.CodeConnectionIdle, protocol.OutcomeNotStarted,
				fmt.Sprintf("the AgentTab host closed this Core connection after %s without a request", s.bounds.idle),
				"Connect again; resume the task with its capability (`agenttab mcp` does both by itself). Nothing sent on the closed connection ran.")
			c.write(errorResponse(json.RawMessage("null"), e))
			s.log.Printf("core rpc: %s: closed after %s idle", c.id, s.bounds.idle)
			return
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && connCtx.Err() == nil {
				s.log.Printf("core rpc: %s: read: %v", c.id, err)
			}
			return
		}
		if len(line) == 0 {
			continue
		}
		req, id, perr := decode(line)
		if perr != nil {
			s.handler.Rejected(c, id, perr)
			c.write(errorResponse(id, perr))
			continue
		}
		size := len(line)
		fl.begin(size)
		go func() {
			defer fl.end(size)
			s.dispatch(connCtx, c, req)
		}()
	}
}

// WithCapability is a handler's answer that also hands the client a resume
// capability: it goes into the response envelope, beside the result or the
// error, never into the result itself (protocol.ResumeParams).
type WithCapability struct {
	Result     any
	Err        error
	Capability string
}

func (s *Server) dispatch(ctx context.Context, c *Conn, req *Request) {
	result, err := s.handler.Handle(ctx, c, req)
	if req.ID == nil {
		return // a notification gets no response (JSON-RPC 2.0 §4.1)
	}
	capability := ""
	if w, ok := result.(WithCapability); ok {
		result, err, capability = w.Result, w.Err, w.Capability
	}
	var resp response
	if err != nil {
		var pe *protocol.Error
		if !errors.As(err, &pe) {
			pe = protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown, err.Error(),
				"Retry once; if it repeats, run `agenttab status` and report the host log.")
		}
		resp = errorResponse(req.ID, pe)
	} else {
		if result == nil {
			result = struct{}{}
		}
		resp = response{JSONRPC: "2.0", ID: req.ID, Result: result}
	}
	resp.Capability = capability
	if werr := c.write(resp); werr != nil && ctx.Err() == nil {
		s.log.Printf("core rpc: %s: write response: %v", c.id, werr)
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns one line without its newline, refusing lines over
// MaxLine. A final line without a newline is returned as a line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+1 {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

func newConnID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return "conn_" + hex.EncodeToString(b[:])
}
