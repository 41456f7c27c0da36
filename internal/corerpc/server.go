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
	"runtime/debug"
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
	// fl counts its requests in flight and keeps its idle clock.
	fl *flight
	// cancel ends the connection's context: its handlers stop waiting.
	cancel context.CancelFunc
}

// ID is the host-generated connection id; clients cannot choose it.
func (c *Conn) ID() string { return c.id }

// Peer is the verified OS credential of the connecting process.
func (c *Conn) Peer() Cred { return c.peer }

// write sends one response. A write that fails (the client stopped reading
// for writeTimeout, or went away) leaves the stream broken mid-line, so it
// closes the connection, which ends its reading, and cancels its handlers.
func (c *Conn) write(r response) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	err := writeResponse(c.nc, r, c.writeTimeout)
	if err != nil {
		c.nc.Close()
		// The client is gone or stuck: the requests it still has queued
		// (back-pressure may have stopped the reading that would see its
		// EOF) stop waiting at once.
		if c.cancel != nil {
			c.cancel()
		}
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
	idle, write, minIdle           time.Duration
}

var defaultBounds = bounds{conns: MaxConnections, inFlight: MaxInFlight, inFlightBytes: MaxInFlightBytes, idle: IdleTimeout, write: WriteTimeout, minIdle: MinIdleBeforeEviction}

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
	if len(s.conns) >= s.bounds.conns && !s.evictIdlest() {
		s.mu.Unlock()
		e := protocol.Fail(protocol.CodeTooManyConnections,
			fmt.Sprintf("the AgentTab host already serves %d Core connections, its limit", s.bounds.conns))
		// Written and closed first, then reported: the client learns why at
		// once, before the host's audit and log work (reporting first made
		// a client that had already sent its hello see a bare hang-up now
		// and then on a loaded machine).
		// A fresh Unix socket's buffer takes one line without blocking; a
		// named pipe may not, and this runs on the accept loop, so the
		// refusal gets a moment, not WriteTimeout (issue 9 review).
		writeResponse(nc, errorResponse(json.RawMessage("null"), e), refusalWriteTimeout)
		nc.Close()
		s.handler.RefusedOverLimit(cred, e)
		return nil
	}
	c := &Conn{id: newConnID(), peer: cred, nc: nc, writeTimeout: s.bounds.write, fl: newFlight(nc, s.bounds)}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	return c
}

// evictIdlest makes room for a new connection at the limit by ending the
// connection that has been idle longest, if one has been idle for at least
// MinIdleBeforeEviction: idle or leaked clients then cannot lock a new
// agent out, and the evicted client, told connection_idle, reconnects and
// resumes its task when it next needs the host (`agenttab mcp` does it by
// itself). Only connections with nothing in flight are candidates, so a
// refusal still comes when every connection is busy. The evicted
// connection leaves within moments; until then the host serves one more
// than its limit. Called with s.mu held.
func (s *Server) evictIdlest() bool {
	now := time.Now()
	var victim *Conn
	var longest time.Duration
	for c := range s.conns {
		if d, ok := c.fl.idleFor(now); ok && d >= s.bounds.minIdle && d > longest {
			victim, longest = c, d
		}
	}
	return victim != nil && victim.fl.evict()
}

// serveConn reads c's requests and handles each in its own goroutine
// (numbered in the order they were read: Request.Seq), at most
// bounds.inFlight (and bounds.inFlightBytes) at once: at the bound it
// stops reading until one finishes, which pushes back on the client through
// the socket. A connection with nothing in flight that sends nothing for
// bounds.idle is told connection_idle and closed. c's place among the
// host's connections is given up only once Closed has run, so what a
// connection holds is bounded until it is released.
func (s *Server) serveConn(ctx context.Context, c *Conn) {
	nc, fl := c.nc, c.fl
	s.handler.Opened(c)
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
	c.cancel = cancel
	br := bufio.NewReaderSize(nc, 64<<10)
	var seq uint64
	for {
		fl.waitRoom()
		if connCtx.Err() != nil {
			return // a write failed: the client is gone, and what it queued is not run
		}
		line, err := ReadLine(br, MaxLine, false)
		if errors.Is(err, ErrLineTooLong) {
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
			why := fmt.Sprintf("after %s without a request", s.bounds.idle)
			if fl.wasEvicted() {
				why = fmt.Sprintf("to make room for a new one: it was the one idle longest, and the host serves at most %d", s.bounds.conns)
			}
			e := protocol.Fail(protocol.CodeConnectionIdle,
				"the AgentTab host closed this Core connection "+why)
			c.write(errorResponse(json.RawMessage("null"), e))
			s.log.Printf("core rpc: %s: closed %s", c.id, why)
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
		seq++
		req.Seq = seq
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
	result, err := s.handle(ctx, c, req)
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
			pe = protocol.Fail(protocol.CodeInternal, err.Error())
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

// handle runs the handler and turns a panic into internal_error: a bug
// reached by one request must not end the host, with every agent's calls
// and the native link (issue 9 review: a click step carrying a wait once
// dereferenced nil in the host). The outcome is unknown, since the request
// may have reached Chrome before the panic.
func (s *Server) handle(ctx context.Context, c *Conn, req *Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("core rpc: %s: %s panicked: %v\n%s", c.id, req.Method, r, debug.Stack())
			result, err = nil, protocol.FailAs(protocol.CodeInternal, protocol.OutcomeUnknown,
				fmt.Sprintf("the host failed while handling %s (a bug; the stack is in host.log)", req.Method))
		}
	}()
	return s.handler.Handle(ctx, c, req)
}

// readLine returns one line without its newline, refusing lines over
// MaxLine. A final line without a newline is returned as a line.
func newConnID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return "conn_" + hex.EncodeToString(b[:])
}
