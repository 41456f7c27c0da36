package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"sync"

	"github.com/agenttab/agenttab/internal/nativemsg"
	"github.com/agenttab/agenttab/protocol"
)

// link is the native port to the extension once the handshake is done:
// host→extension requests matched to responses by id, extension events,
// and the extension's own requests (NativeLocalFile), which answer runs.
type link struct {
	w   *nativemsg.Writer
	r   *nativemsg.Reader
	log *log.Logger
	// answer serves an extension→host request; set before run.
	answer func(method string, params json.RawMessage) (any, *protocol.Error)
	// answering holds a place for each answer being worked out: a local
	// page with thousands of file: subresources asks about each, and every
	// answer walks the disk (issue 9 review).
	answering chan struct{}

	mu sync.Mutex
	// beforeWrite, when set, is called with each request's method just
	// before it is written: this package's tests hold one request there to
	// show that nothing of its task overtakes it (wait_order_test.go).
	beforeWrite func(method string)
	next        int64
	pending     map[int64]chan protocol.NativeResponse
	closed      chan struct{}
}

func newLink(r *nativemsg.Reader, w *nativemsg.Writer, logger *log.Logger) *link {
	return &link{r: r, w: w, log: logger, pending: map[int64]chan protocol.NativeResponse{}, closed: make(chan struct{}),
		answering: make(chan struct{}, maxAnswering)}
}

// run reads until the port closes (stdin EOF), delivering responses to
// callers and events to onEvent. It returns the read error (io.EOF when the
// extension disconnected).
func (l *link) run(onEvent func(name string, params json.RawMessage)) error {
	defer func() {
		l.mu.Lock()
		l.pending = nil
		l.mu.Unlock()
		close(l.closed)
	}()
	for {
		body, err := l.r.Read()
		if err != nil {
			return err
		}
		body = withoutUserinfo(body)
		var head struct {
			Type   string          `json:"type"`
			ID     int64           `json:"id"`
			Event  string          `json:"event"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *protocol.Error `json:"error"`
		}
		if err := json.Unmarshal(body, &head); err != nil {
			l.log.Printf("native: undecodable message from the extension: %v", err)
			continue
		}
		switch head.Type {
		case protocol.NativeTypeResponse:
			l.mu.Lock()
			ch := l.pending[head.ID]
			delete(l.pending, head.ID)
			l.mu.Unlock()
			if ch != nil {
				ch <- protocol.NativeResponse{ID: head.ID, Result: head.Result, Error: head.Error}
			}
		case protocol.NativeTypeEvent:
			onEvent(head.Event, head.Params)
		case protocol.NativeTypeRequest:
			// Answered off the read loop: a check that reads a slow disk
			// must not hold up the answers the host's own calls wait for.
			go l.serve(head.ID, head.Method, head.Params)
		default:
			l.log.Printf("native: unexpected message type %q", head.Type)
		}
	}
}

// maxAnswering bounds the extension's requests the host works on at once;
// the rest wait their turn.
const maxAnswering = 8

// serve answers one request of the extension with a response of its id.
func (l *link) serve(id int64, method string, params json.RawMessage) {
	resp := protocol.NativeResponse{Type: protocol.NativeTypeResponse, ID: id}
	l.answering <- struct{}{}
	result, perr := l.answer(method, params)
	<-l.answering
	if perr != nil {
		resp.Error = perr
	} else {
		resp.Result = result
	}
	if err := l.w.Write(resp); err != nil {
		l.log.Printf("native: answering the extension's %s: %v", method, err)
	}
}

// call sends one request and decodes the result into out. failOutcome is the
// outcome to report when the answer never comes: "unknown" for a mutation
// (something may have happened), "not_started" only when nothing was sent.
func (l *link) call(ctx context.Context, method string, params, out any, failOutcome protocol.Outcome) *protocol.Error {
	return l.callSent(ctx, method, params, out, failOutcome, nil)
}

// callSent is call that runs sent, when set, once the request is written to
// the port and before its answer is awaited: the extension orders a task's
// requests as they arrive, so a caller that lets its task's next request go
// in sent has its own request ahead of it (wait.go). sent does not run when
// nothing was written.
func (l *link) callSent(ctx context.Context, method string, params, out any, failOutcome protocol.Outcome, sent func()) *protocol.Error {
	ch := make(chan protocol.NativeResponse, 1)
	l.mu.Lock()
	if l.pending == nil {
		l.mu.Unlock()
		return extensionGone(protocol.OutcomeNotStarted)
	}
	l.next++
	id := l.next
	l.pending[id] = ch
	beforeWrite := l.beforeWrite
	l.mu.Unlock()
	forget := func() {
		l.mu.Lock()
		if l.pending != nil {
			delete(l.pending, id)
		}
		l.mu.Unlock()
	}

	if beforeWrite != nil {
		beforeWrite(method)
	}
	err := l.w.Write(protocol.NativeRequest{Type: protocol.NativeTypeRequest, ID: id, Method: method, Params: params, Class: protocol.Classify(method, params)})
	if err != nil {
		forget()
		if errors.Is(err, nativemsg.ErrTooLarge) {
			return protocol.Fail(protocol.CodeMessageTooBig, err.Error())
		}
		return extensionGone(protocol.OutcomeNotStarted)
	}
	if sent != nil {
		sent()
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return resp.Error
		}
		if out != nil {
			raw, _ := resp.Result.(json.RawMessage)
			if err := json.Unmarshal(raw, out); err != nil {
				return protocol.NewError(protocol.CodeInternal, failOutcome,
					fmt.Sprintf("undecodable %s answer from the extension: %v", method, err), protocol.RecoveryUpdate)
			}
		}
		return nil
	case <-l.closed:
		return extensionGone(failOutcome)
	case <-ctx.Done():
		forget()
		e := protocol.FailAs(protocol.CodeExtensionTimeout, failOutcome,
			fmt.Sprintf("the extension did not answer %s in time", method))
		return e
	}
}

func extensionGone(outcome protocol.Outcome) *protocol.Error {
	return protocol.FailAs(protocol.CodeExtensionGone, outcome, "the extension disconnected from the host")
}
