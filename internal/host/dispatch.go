package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agenttab/agenttab/internal/audit"
	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// call is one request in flight, filled in by its handler for the audit.
type call struct {
	s      *session
	params json.RawMessage
	// seq is the request's place in its connection's arrival order
	// (corerpc.Request.Seq; arrivals.go).
	seq     uint64
	taskID  string
	outcome protocol.Outcome
	replay  bool
	// capability is a resume capability issued by this call; it travels in
	// the response envelope, never in the result or the audit.
	capability string
}

type method struct {
	// browser methods need the host to be ready and create the task.
	browser bool
	// beforeConfirm methods are admitted while a capability awaits confirmation.
	beforeConfirm bool
	serve         func(h *Host, ctx context.Context, c *call) (any, error)
}

// methods is the Core RPC method table. Anything else is unknown_method.
var methods = map[string]method{
	protocol.MethodHello:             {serve: (*Host).hello, beforeConfirm: true},
	protocol.MethodStatus:            {serve: (*Host).status, beforeConfirm: true},
	protocol.MethodCapabilityConfirm: {serve: (*Host).capabilityConfirm, beforeConfirm: true},
	protocol.MethodResume:            {serve: (*Host).resume},
	protocol.MethodPause:             {serve: (*Host).pause},
	protocol.MethodUnpause:           {serve: (*Host).unpause},
	protocol.MethodOpen:              {browser: true, serve: (*Host).open},
	protocol.MethodTabs:              {browser: true, serve: (*Host).tabs},
	protocol.MethodFinish:            {browser: true, serve: (*Host).finish},

	protocol.MethodSnapshot: {browser: true, serve: (*Host).snapshot},
	protocol.MethodAct:      {browser: true, serve: (*Host).act},
	protocol.MethodWait:     {browser: true, serve: (*Host).wait},
	protocol.MethodBlobRead: {browser: true, serve: (*Host).blobRead},
	protocol.MethodCommit:   {browser: true, serve: (*Host).commit},
	protocol.MethodHandoff:  {browser: true, serve: (*Host).handoff},
	// The 1Password broker (credentials.go).
	protocol.MethodCredentials: {browser: true, serve: (*Host).credentials},
	// Admits browser work itself, after the policy's refusal (developer.go).
	protocol.MethodDeveloper: {serve: (*Host).developer},
	// The profile, not a tab (profile.go).
	protocol.MethodProfile: {browser: true, serve: (*Host).profile},
}

// Opened implements corerpc.Handler.
func (h *Host) Opened(c *corerpc.Conn) {
	h.mu.Lock()
	h.sessions[c.ID()] = &session{conn: c, arrivals: newArrivals()}
	h.mu.Unlock()
	if err := h.store.InsertConnection(context.Background(), storeConnection(c, h.now())); err != nil {
		h.log.Printf("%s: recording connection: %v", c.ID(), err)
	}
}

// Closed implements corerpc.Handler: the connection's task is detached and
// stays resumable; its tabs stay owned (DESIGN.md "Tasks"). corerpc calls
// it once every request of the connection has ended and gives up the
// connection's place only after it returns, so what is released here is
// released before another connection can take the place (issue 9: a
// client connecting in a loop must leave nothing behind).
func (h *Host) Closed(c *corerpc.Conn) {
	h.mu.Lock()
	s := h.sessions[c.ID()]
	delete(h.sessions, c.ID())
	h.mu.Unlock()
	ctx := context.Background()
	if s != nil {
		h.releaseUnconfirmed(ctx, s)
		// The task keeps its store rows; its text captures are memory
		// that a resume re-reads from the page when asked.
		if id := s.currentTask(); id != "" {
			h.texts.dropTask(id)
		}
	}
	if err := h.store.DetachConnectionTasks(ctx, c.ID(), h.now()); err != nil {
		h.log.Printf("%s: detaching tasks: %v", c.ID(), err)
	}
	if err := h.store.CloseConnection(ctx, c.ID(), h.now()); err != nil {
		h.log.Printf("%s: closing connection: %v", c.ID(), err)
	}
	if _, err := h.trimDetached(ctx, MaxDetachedTasks); err != nil {
		h.log.Printf("%s: bounding detached tasks: %v", c.ID(), err)
	}
	if err := h.store.ForgetConnection(ctx, c.ID()); err != nil {
		h.log.Printf("%s: %v", c.ID(), err)
	}
}

// Refused implements corerpc.Handler: a foreign peer is audited as an event
// (coalesced: refusals.go).
func (h *Host) Refused(peer corerpc.Cred, reason string) {
	h.refusals.note(refusal{code: protocol.CodePeerRefused, pid: peer.PID, message: reason, recovery: reason, last: h.now()})
}

// RefusedOverLimit implements corerpc.Handler: a connection over the
// host's limit is a security event too (issue 9: one client can try to
// exhaust the host).
func (h *Host) RefusedOverLimit(peer corerpc.Cred, e *protocol.Error) {
	h.refusals.note(refusal{code: e.Code, pid: peer.PID, message: e.Message, recovery: e.Recovery, last: h.now()})
}

// writeRefusal writes one refusal, or a burst of them, to the host log and
// the audit.
func (h *Host) writeRefusal(r refusal) {
	if r.count == 1 {
		h.log.Printf("refused a Core peer (pid %d): %s", r.pid, r.message)
	} else {
		h.log.Printf("refused %d Core peers (%s) from %s to %s; the last (pid %d): %s",
			r.count, r.code, r.first.Format(time.TimeOnly), r.last.Format(time.TimeOnly), r.pid, r.message)
	}
	h.writeAudit(audit.Record{
		TS: r.first, TSEnd: r.last, Kind: audit.KindEvent, Method: "event.peer_refused", Count: r.count,
		Outcome: protocol.OutcomeNotStarted, ErrorCode: r.code, Recovery: r.recovery,
		ArgsSummary: map[string]any{"peer_pid": "number"}, ArgsDigest: audit.Digest(json.RawMessage("{}")),
	})
}

// Rejected implements corerpc.Handler: malformed requests are audited too.
func (h *Host) Rejected(c *corerpc.Conn, id json.RawMessage, e *protocol.Error) {
	now := h.now()
	h.writeAudit(audit.Record{
		TS: now, TSEnd: now, Kind: audit.KindRequest, ConnectionID: c.ID(), TaskID: h.sessionTask(c.ID()), RequestID: audit.RequestID(id),
		Method: "", Outcome: e.Outcome, ErrorCode: e.Code, Recovery: e.Recovery,
		ArgsDigest: audit.Digest(json.RawMessage("{}")),
	})
}

// Handle implements corerpc.Handler.
func (h *Host) Handle(ctx context.Context, c *corerpc.Conn, req *corerpc.Request) (any, error) {
	start := h.now()
	h.mu.Lock()
	s := h.sessions[c.ID()]
	h.mu.Unlock()
	cl := &call{s: s, params: req.Params, seq: req.Seq}
	logged := req.Params
	if req.Method == protocol.MethodResume {
		// Not even a digest of the capability goes to the audit.
		logged = json.RawMessage(`{"capability":"<redacted>"}`)
	}
	op := ""
	if req.Method == protocol.MethodProfile {
		// Spec 000: every string but the operation, before anything is computed.
		logged, op = audit.RedactProfile(req.Params)
	}
	result, err := h.serve(ctx, req.Method, cl)
	if s != nil {
		// A request that never joined its task's line (not browser work,
		// or refused first) lets the connection's next ones go on.
		s.arrivals.pass(req.Seq)
	}
	var pe *protocol.Error
	if err != nil && !errors.As(err, &pe) {
		pe = internalError(req.Method, err)
		err = pe
	}
	if cl.taskID == "" && s != nil {
		cl.taskID = s.currentTask()
	}
	rec := audit.Record{
		TS: start, TSEnd: h.now(), Kind: audit.KindRequest, ConnectionID: c.ID(), TaskID: cl.taskID,
		RequestID: audit.RequestID(req.ID), Method: req.Method, Operation: op, Replay: cl.replay,
		TargetOrigins: audit.Origins(logged), ArgsSummary: audit.Summarize(logged), ArgsDigest: audit.Digest(logged),
	}
	if pe != nil {
		rec.Outcome, rec.ErrorCode, rec.Recovery = pe.Outcome, pe.Code, pe.Recovery
	} else {
		rec.Outcome = cl.outcome
		// A batch that stopped early is a result carrying its step's error.
		if act, ok := result.(protocol.ActResult); ok && act.Error != nil {
			rec.ErrorCode, rec.Recovery = act.Error.Code, act.Error.Recovery
		}
		if raw, merr := json.Marshal(result); merr == nil {
			rec.ResultSummary = audit.Summarize(raw)
			rec.Challenge = audit.Challenge(raw)
			// The answer goes out as these bytes: encoding a 127,000-character
			// snapshot twice cost about 1 ms (docs/benchmarks.md). A nil
			// result stays nil, which corerpc answers as {}.
			if result != nil {
				result = json.RawMessage(raw)
			}
		}
	}
	h.writeAudit(rec)
	if cl.capability != "" {
		return corerpc.WithCapability{Result: result, Err: err, Capability: cl.capability}, nil
	}
	return result, err
}

func (h *Host) serve(ctx context.Context, name string, cl *call) (any, error) {
	m, ok := methods[name]
	if !ok {
		// The list is derived from the table, so it names every method served.
		return nil, protocol.NewError(protocol.CodeUnknownMethod, protocol.OutcomeNotStarted,
			fmt.Sprintf("unknown method %q", name), "Use one of the Core methods: "+strings.Join(slices.Sorted(maps.Keys(methods)), ", ")+".")
	}
	if cl.s == nil {
		return nil, internalError("request on an unregistered connection", errors.New("no session"))
	}
	if !m.beforeConfirm && cl.s.awaitingConfirm() {
		return nil, errCapabilityUnconfirmed()
	}
	if m.browser {
		if perr := h.life.admit(); perr != nil {
			return nil, perr
		}
	}
	return m.serve(h, ctx, cl)
}

func (h *Host) sessionTask(connID string) string {
	h.mu.Lock()
	s := h.sessions[connID]
	h.mu.Unlock()
	if s == nil {
		return ""
	}
	return s.currentTask()
}

func (h *Host) writeAudit(r audit.Record) {
	if err := h.audit.Write(r); err != nil {
		h.log.Printf("audit: %v", err)
	}
}

// extCall bounds one extension call.
func (h *Host) extCall(ctx context.Context, timeout time.Duration, method string, params, out any, failOutcome protocol.Outcome) *protocol.Error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return h.link.call(cctx, method, params, out, failOutcome)
}

// errCapabilityUnconfirmed refuses work on a connection that holds a resume
// capability it has not confirmed yet.
func errCapabilityUnconfirmed() *protocol.Error {
	return protocol.Fail(protocol.CodeCapabilityUnconfirmed, "this connection was given a resume capability that it has not confirmed")
}
