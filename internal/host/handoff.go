package host

import (
	"context"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// browser_handoff (protocol/handoff.go; spec 000 handoff and notices, spec
// 001): the host checks the arguments and the tab's ownership and passes
// the call to the extension, which keeps the notices. request, resolve and
// dismiss change a notice, so they are task mutations under an idempotency
// key; status is a read. It works on tab_only tabs: nothing here asks for
// page access. The message goes to the extension only: the audit keeps its
// length (Summarize), the host log nothing of it.

// noticeIDForm is the extension's notice id (notices.ts newNoticeId).
var noticeIDForm = regexp.MustCompile(`^` + protocol.HandlePrefixNotice + `[0-9a-f]{32}$`)

const handoffTimeout = 15 * time.Second

// handoff serves browser_handoff.
func (h *Host) handoff(ctx context.Context, c *call) (any, error) {
	var p protocol.HandoffParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	ext, perr := checkHandoffParams(p)
	if perr != nil {
		return nil, perr
	}
	fields := func(r *protocol.HandoffResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome }
	run := func(task store.Task) (protocol.HandoffResult, *protocol.Error) { return h.handoffOn(ctx, task, p, ext) }
	if p.Action == protocol.HandoffStatus {
		return taskRead(h, ctx, c, fields, run)
	}
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodHandoff, key, p, fields, run)
}

// checkHandoffParams checks what each action takes and turns the call into
// the extension's params (but for the task and the tab).
func checkHandoffParams(p protocol.HandoffParams) (protocol.ExtHandoffParams, *protocol.Error) {
	bad := func(msg string) (protocol.ExtHandoffParams, *protocol.Error) {
		return protocol.ExtHandoffParams{}, protocol.Fail(protocol.CodeInvalidParams, msg)
	}
	if perr := oneOf("action", p.Action, protocol.HandoffActions); perr != nil {
		return protocol.ExtHandoffParams{}, perr
	}
	ext := protocol.ExtHandoffParams{Action: p.Action, NoticeID: p.NoticeID}
	request := p.Action == protocol.HandoffRequest
	if !request && (p.Reason != "" || p.Message != "" || p.ExpiresInS != nil) {
		return bad("reason, message and expires_in_s belong to action \"request\" only")
	}
	switch p.Action {
	case protocol.HandoffRequest:
		if p.Tab == "" {
			return bad("a handoff request needs tab: the tab the user should act in")
		}
		if p.NoticeID != "" {
			return bad("a handoff request makes a new notice; notice_id belongs to resolve and dismiss")
		}
		if perr := oneOf("reason", p.Reason, protocol.HandoffReasons); perr != nil {
			return protocol.ExtHandoffParams{}, perr
		}
		if !utf8.ValidString(p.Message) || utf8.RuneCountInString(p.Message) > protocol.MaxHandoffMessage {
			return bad(fmt.Sprintf("message must be valid UTF-8 of at most %d characters", protocol.MaxHandoffMessage))
		}
		secs := protocol.DefaultNoticeSeconds
		if p.ExpiresInS != nil {
			secs = *p.ExpiresInS
		}
		if secs < protocol.MinNoticeSeconds || secs > protocol.MaxNoticeSeconds {
			return bad(fmt.Sprintf("expires_in_s must be between %d and %d, or omitted for %d; it was %d", protocol.MinNoticeSeconds, protocol.MaxNoticeSeconds, protocol.DefaultNoticeSeconds, secs))
		}
		ext.Reason, ext.Message, ext.ExpiresInMs = p.Reason, p.Message, int64(secs)*1000
	case protocol.HandoffResolve, protocol.HandoffDismiss:
		if !noticeIDForm.MatchString(p.NoticeID) {
			return bad("notice_id must be the notice_id a handoff request returned (ntc_…), not " + quotedShort(p.NoticeID))
		}
	case protocol.HandoffStatus:
		if p.NoticeID != "" {
			return bad("status lists the task's notices (or one tab's); notice_id belongs to resolve and dismiss")
		}
	}
	return ext, nil
}

// handoffOn resolves the tab and asks the extension.
func (h *Host) handoffOn(ctx context.Context, task store.Task, p protocol.HandoffParams, ext protocol.ExtHandoffParams) (protocol.HandoffResult, *protocol.Error) {
	ext.TaskID = task.ID
	if p.Tab != "" {
		tab, perr := h.ownedTab(ctx, task.ID, p.Tab)
		if perr != nil {
			return protocol.HandoffResult{}, perr
		}
		ext.TabID = tab.ChromeTabID
	}
	var out protocol.ExtHandoffResult
	// Only the extension's notice storage changes, so an answer that never
	// comes leaves a request unknown; a status read nothing.
	fail := protocol.OutcomeUnknown
	if p.Action == protocol.HandoffStatus {
		fail = protocol.OutcomeNotStarted
	}
	if perr := h.extCall(ctx, handoffTimeout, protocol.NativeHandoff, ext, &out, fail); perr != nil {
		return protocol.HandoffResult{}, perr
	}
	owned, err := h.store.OwnedTabs(ctx, task.ID)
	if err != nil {
		return protocol.HandoffResult{}, internalError("listing tabs", err)
	}
	handles := map[int]string{}
	for _, t := range owned {
		handles[t.ChromeTabID] = t.Handle
	}
	res := protocol.HandoffResult{Action: p.Action, UserIdleState: out.UserIdleState, Outcome: protocol.OutcomeConfirmed}
	if p.Action == protocol.HandoffStatus {
		res.Outcome = protocol.OutcomeObserved
	}
	if out.Notice != nil {
		n := agentNotice(*out.Notice, handles[out.Notice.TabID])
		res.Notice = &n
	}
	for _, n := range out.Notices {
		// A notice of a tab the task no longer owns is not the task's to see.
		if handle, ok := handles[n.TabID]; ok {
			res.Notices = append(res.Notices, agentNotice(n, handle))
		}
	}
	return res, nil
}

func agentNotice(n protocol.ExtNotice, handle string) protocol.Notice {
	return protocol.Notice{
		NoticeID: n.NoticeID, Tab: handle, Reason: n.Reason, State: n.State, Origin: n.Origin,
		AgeMs: n.AgeMs, ExpiresInMs: n.ExpiresInMs, HiddenByUser: n.HiddenByUser,
	}
}
