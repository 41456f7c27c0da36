package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/internal/corerpc"
)

// lineTransport serves MCP over newline-delimited JSON-RPC on a reader and
// a writer (stdin and stdout) in place of the SDK's StdioTransport, which
// ends the session on the first line it cannot decode. Every line goes
// through parseLine: the SDK gets the messages, decoded, and the adapter
// answers the rest with JSON-RPC errors and keeps serving.
type lineTransport struct {
	r io.ReadCloser
	w io.Writer
}

// Connect implements mcp.Transport.
func (t lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{r: t.r, w: t.w, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLines()
	return c, nil
}

// lineOrErr is what readLines found: a line, one too long to read, or the
// end of the input.
type lineOrErr struct {
	line    []byte
	tooLong bool
	err     error
}

// lineConn is one stdio session. Read is called by one goroutine at a
// time (the SDK's read loop); Write by many.
type lineConn struct {
	r      io.ReadCloser
	w      io.Writer
	lines  chan lineOrErr
	closed chan struct{}
	once   sync.Once

	// queue holds the rest of a batch for the next Reads.
	queue []jsonrpc.Message

	wmu sync.Mutex

	mu sync.Mutex
	// initialize is the id of the client's initialize request, whose
	// answer names the MCP version in use, and version that version.
	initialize jsonrpc.ID
	version    string
	// batchesByID maps each request of a batch still being answered to
	// the batch.
	batchesByID map[jsonrpc.ID]*batchAnswer
}

// batchAnswer collects the answers of one batch, sent as one array once
// every request in it is answered (JSON-RPC 2.0 §6).
type batchAnswer struct {
	answers []json.RawMessage
	pending int
}

// readLines feeds lines to Read until the input ends. A goroutine, so that
// Close can end a Read that waits on input (reading stdin cannot always
// be interrupted; the goroutine then ends with the process).
func (c *lineConn) readLines() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		line, err := corerpc.ReadLine(br, MaxMessage, true)
		l := lineOrErr{line: line, err: err}
		if errors.Is(err, corerpc.ErrLineTooLong) {
			l = lineOrErr{tooLong: true}
		}
		select {
		case c.lines <- l:
		case <-c.closed:
			return
		}
		if l.err != nil {
			return
		}
	}
}

// Read implements mcp.Connection: the next message for the SDK. Lines that
// hold none are answered here.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for len(c.queue) == 0 {
		var l lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			return nil, l.err
		}
		if l.tooLong {
			if err := c.writeLine(tooLongRefusal(MaxMessage)); err != nil {
				return nil, err
			}
			continue
		}
		if err := c.take(parseLine(l.line, c.batches())); err != nil {
			return nil, err
		}
	}
	msg := c.queue[0]
	c.queue = c.queue[1:]
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" && req.ID.IsValid() {
		c.mu.Lock()
		c.initialize = req.ID
		c.mu.Unlock()
	}
	return msg, nil
}

// take queues a line's messages and answers what the adapter refused: at
// once, unless the line was a batch with requests to wait for.
func (c *lineConn) take(p parsedLine) error {
	c.queue = append(c.queue, p.msgs...)
	if !p.batch {
		for _, r := range p.refusals {
			if err := c.writeLine(r); err != nil {
				return err
			}
		}
		return nil
	}
	b := &batchAnswer{answers: p.refusals}
	c.mu.Lock()
	for _, m := range p.msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
			if c.batchesByID == nil {
				c.batchesByID = map[jsonrpc.ID]*batchAnswer{}
			}
			c.batchesByID[req.ID] = b
			b.pending++
		}
	}
	// Nothing can answer these requests before Read hands them on.
	complete := b.pending == 0 && len(b.answers) > 0
	c.mu.Unlock()
	if complete {
		return c.writeBatch(b.answers)
	}
	return nil
}

// batches says whether the MCP version in use has JSON-RPC batches: until
// the initialize answer names a later one, as the SDK's transport does.
func (c *lineConn) batches() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version == "" || c.version < batchlessVersion
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.writeLine(data)
	}
	c.mu.Lock()
	if c.initialize.IsValid() && resp.ID == c.initialize && resp.Error == nil {
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(resp.Result, &res) == nil {
			c.version = res.ProtocolVersion
		}
	}
	b := c.batchesByID[resp.ID]
	complete := false
	if b != nil {
		delete(c.batchesByID, resp.ID)
		b.answers = append(b.answers, data)
		b.pending--
		complete = b.pending == 0
	}
	c.mu.Unlock()
	switch {
	case b == nil:
		return c.writeLine(data)
	case complete:
		return c.writeBatch(b.answers)
	}
	return nil
}

func (c *lineConn) writeBatch(answers []json.RawMessage) error {
	data, err := json.Marshal(answers)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		err = c.r.Close()
	})
	return err
}

// SessionID implements mcp.Connection: stdio has one session.
func (c *lineConn) SessionID() string { return "" }
