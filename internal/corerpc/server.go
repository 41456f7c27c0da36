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
	"sync"

	"github.com/agenttab/agenttab/protocol"
)

// Conn is one accepted, authenticated Core connection.
type Conn struct {
	id   string
	peer Cred
	nc   net.Conn
	wmu  sync.Mutex
}

// ID is the host-generated connection id; clients cannot choose it.
func (c *Conn) ID() string { return c.id }

// Peer is the verified OS credential of the connecting process.
func (c *Conn) Peer() Cred { return c.peer }

func (c *Conn) write(r response) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.nc.Write(b)
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

	mu    sync.Mutex
	conns map[*Conn]struct{}
	wg    sync.WaitGroup
}

// NewServer returns a Server that admits peers running as selfUID.
func NewServer(h Handler, selfUID int, logger *log.Logger) *Server {
	return &Server{handler: h, creds: PeerCred, selfUID: selfUID, log: logger, conns: map[*Conn]struct{}{}}
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
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(ctx, nc)
		}()
	}
}

func (s *Server) serveConn(ctx context.Context, nc net.Conn) {
	defer nc.Close()
	cred, err := s.creds(nc)
	if err != nil {
		s.handler.Refused(cred, "peer credentials unreadable: "+err.Error())
		return
	}
	if cred.UID != s.selfUID {
		s.handler.Refused(cred, fmt.Sprintf("peer runs as uid %d, the host as uid %d", cred.UID, s.selfUID))
		return
	}
	c := &Conn{id: newConnID(), peer: cred, nc: nc}
	s.mu.Lock()
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	s.handler.Opened(c)
	var inflight sync.WaitGroup
	defer func() {
		inflight.Wait()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.handler.Closed(c)
	}()

	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	br := bufio.NewReaderSize(nc, 64<<10)
	for {
		line, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			e := protocol.NewError(protocol.CodeMessageTooBig, protocol.OutcomeNotStarted,
				fmt.Sprintf("a Core RPC message is limited to %d bytes", MaxLine),
				"Send smaller requests; the connection is closed because the stream cannot be resynchronised.")
			s.handler.Rejected(c, json.RawMessage("null"), e)
			c.write(errorResponse(json.RawMessage("null"), e))
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
		inflight.Add(1)
		go func() {
			defer inflight.Done()
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
