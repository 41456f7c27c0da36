package host

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// browser_profile (protocol/profile.go; spec 000 "Profile operations"):
// the arguments are checked here against the operation's rule
// (protocol.ProfileRules), the task is bound as for every browser tool, and
// the operation goes to the extension as one global request
// (NativeProfile). Writes run under an idempotency key whose record holds
// ids and state only; bookmarks_remove always stages (the extension never
// removes on the first request), and browser_commit of its stage removes
// it (commitBookmarkRemove). Titles, URLs, file names and search text go
// only to the agent: the audit redacts every string argument
// (audit.RedactProfile), and nothing here logs one.

// profileTimeout bounds one profile operation in the extension: Chrome's
// profile APIs answer in milliseconds, a restore opens up to 25 tabs
// without waiting for them to load.
const profileTimeout = 30 * time.Second

var (
	// profileIDForm: Chrome's bookmark and download ids are decimal, a
	// session's is its sessionId (a number, or a device's tag and a
	// number). Nothing longer or stranger reaches the extension.
	profileIDForm = regexp.MustCompile(`^[0-9A-Za-z_.:-]{1,128}$`)
	// profileStateForm is what a write's State may be: a short word. The
	// result is kept as the key's record, so nothing else gets through.
	profileStateForm = regexp.MustCompile(`^[a-z_]{1,32}$`)
)

// profile serves browser_profile.
func (h *Host) profile(ctx context.Context, c *call) (any, error) {
	var p protocol.ProfileParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	rule, perr := h.checkProfileParams(c.params, &p)
	if perr != nil {
		return nil, perr
	}
	fields := func(r *protocol.ProfileResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome }
	if !rule.Write {
		return taskRead(h, ctx, c, fields, func(task store.Task) (protocol.ProfileResult, *protocol.Error) { return h.profileRead(ctx, task, p) })
	}
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodProfile, key, p, fields,
		func(task store.Task) (protocol.ProfileResult, *protocol.Error) { return h.profileWrite(ctx, task, p) })
}

// checkProfileParams checks p by its operation's rule, before a task is
// bound or anything recorded, and fills in max_results's default. raw
// says which fields were given (a zero is given too).
func (h *Host) checkProfileParams(raw json.RawMessage, p *protocol.ProfileParams) (protocol.ProfileRule, *protocol.Error) {
	rule, ok := protocol.ProfileRules[p.Op]
	if !ok {
		ops := make([]string, 0, len(protocol.ProfileRules))
		for op := range protocol.ProfileRules {
			ops = append(ops, string(op))
		}
		slices.Sort(ops)
		return rule, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"op must be one of "+strings.Join(ops, ", ")+", not "+quotedShort(string(p.Op)),
			"Pass op: one of "+strings.Join(ops, ", ")+".")
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(raw, &given); err != nil {
		return rule, protocol.Fail(protocol.CodeInvalidParams, "browser_profile takes an object of arguments")
	}
	bad := func(msg string) (protocol.ProfileRule, *protocol.Error) {
		return rule, protocol.Fail(protocol.CodeInvalidParams, fmt.Sprintf("%s: %s", p.Op, msg))
	}
	for _, f := range protocol.ProfileFields {
		_, has := given[string(f)]
		switch {
		case slices.Contains(rule.Needs, f) && !has:
			return bad(fmt.Sprintf("%s is required", f))
		case has && !slices.Contains(rule.Needs, f) && !slices.Contains(rule.Takes, f):
			return bad(fmt.Sprintf("does not take %s", f))
		}
	}
	if len(rule.OneOf) > 0 && !slices.ContainsFunc(rule.OneOf, func(f protocol.ProfileField) bool { _, has := given[string(f)]; return has }) {
		return bad(fmt.Sprintf("needs at least one of %v", rule.OneOf))
	}
	// Values are described by their field and length only: the message
	// goes to the agent, but a log line quoting one must never exist.
	for _, v := range []struct {
		f  protocol.ProfileField
		id string
	}{{protocol.ProfileFieldID, p.ID}, {protocol.ProfileFieldParentID, p.ParentID}} {
		if _, has := given[string(v.f)]; has && !profileIDForm.MatchString(v.id) {
			return bad(fmt.Sprintf("%s must be an id from an earlier browser_profile answer (up to 128 letters, digits and ._:-)", v.f))
		}
	}
	if p.Index != nil && *p.Index < 0 {
		return bad("index must be 0 or more")
	}
	if p.StartTimeMs != nil && *p.StartTimeMs < 0 || p.EndTimeMs != nil && *p.EndTimeMs < 0 {
		return bad("start_time_ms and end_time_ms are epoch milliseconds, 0 or more")
	}
	if p.StartTimeMs != nil && p.EndTimeMs != nil && *p.EndTimeMs < *p.StartTimeMs {
		return bad("end_time_ms is before start_time_ms")
	}
	if len(p.Query) > protocol.MaxURLBytes || len(p.Title) > protocol.MaxURLBytes {
		return bad(fmt.Sprintf("query and title are at most %d bytes", protocol.MaxURLBytes))
	}
	if _, has := given[string(protocol.ProfileFieldMaxResults)]; has {
		if p.MaxResults == nil || *p.MaxResults < 1 || *p.MaxResults > protocol.MaxProfileResults {
			return bad(fmt.Sprintf("max_results must be from 1 to %d", protocol.MaxProfileResults))
		}
	} else if slices.Contains(rule.Takes, protocol.ProfileFieldMaxResults) {
		n := protocol.DefaultProfileResults
		p.MaxResults = &n
	}
	if _, has := given[string(protocol.ProfileFieldURL)]; has {
		if perr := checkBookmarkURL(p.URL); perr != nil {
			return rule, perr
		}
	}
	if p.Op == protocol.ProfileSessionsRestore && h.policy.Origins.Constrained() {
		// Spec 000: the restored URLs cannot be checked against the lists
		// before they open.
		return rule, protocol.NewError(protocol.CodeOriginPolicyUnverifiable, protocol.OutcomeNotStarted,
			"sessions_restore is refused while the managed policy lists allowed or denied origins: the restored URLs cannot be checked against it before they open",
			"Open each URL you need with browser_open, which the policy checks (sessions_list shows them).")
	}
	return rule, nil
}

// checkBookmarkURL admits an absolute URL a bookmark can hold and go back
// to. The URL itself is never echoed.
func checkBookmarkURL(raw string) *protocol.Error {
	bad := func(why string) *protocol.Error { return protocol.Fail(protocol.CodeInvalidURL, "url "+why) }
	if len(raw) > protocol.MaxURLBytes {
		return bad(fmt.Sprintf("is longer than %d bytes", protocol.MaxURLBytes))
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "" && u.Path == "") {
		return bad("must be an absolute URL such as https://example.com/page")
	}
	// A bookmarklet runs a script; data:, blob: and filesystem: carry
	// content; file: and browser pages are places the origin and
	// local-file policies keep agents from (issue 9).
	if !slices.Contains(protocol.WebSchemes, strings.ToLower(u.Scheme)) {
		return bad(fmt.Sprintf("has scheme %s:; a bookmark made by AgentTab holds an http or https URL", strings.ToLower(u.Scheme)))
	}
	return nil
}

// profileRead runs a read: what the extension found goes to the agent.
func (h *Host) profileRead(ctx context.Context, task store.Task, p protocol.ProfileParams) (protocol.ProfileResult, *protocol.Error) {
	var ext protocol.ExtProfileResult
	if perr := h.extCall(ctx, profileTimeout, protocol.NativeProfile, protocol.ExtProfileParams{Task: look(task), Params: p}, &ext, protocol.OutcomeNotStarted); perr != nil {
		return protocol.ProfileResult{}, perr
	}
	items := ext.Items
	if items == nil {
		items = []any{}
	}
	return protocol.ProfileResult{Op: p.Op, Items: items, Truncated: ext.Truncated, Outcome: protocol.OutcomeObserved}, nil
}

// profileWrite runs a write. Its result is built from ids and state only,
// whatever else the extension answered: it becomes the key's record.
func (h *Host) profileWrite(ctx context.Context, task store.Task, p protocol.ProfileParams) (protocol.ProfileResult, *protocol.Error) {
	epoch := h.yoloEpoch()
	var ext protocol.ExtProfileResult
	if perr := h.extCall(ctx, profileTimeout, protocol.NativeProfile, protocol.ExtProfileParams{Task: look(task), Params: p}, &ext, protocol.OutcomeUnknown); perr != nil {
		return protocol.ProfileResult{}, perr
	}
	res := protocol.ProfileResult{Op: p.Op, Outcome: protocol.OutcomeConfirmed}
	switch p.Op {
	case protocol.ProfileBookmarksRemove:
		if ext.Staged == nil {
			// The extension was to stage it, never to remove it.
			return protocol.ProfileResult{}, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown,
				"the extension answered bookmarks_remove without staging it", protocol.RecoveryUpdate)
		}
		info, perr := h.recordProfileStage(ctx, epoch, task, *ext.Staged)
		if perr != nil {
			return protocol.ProfileResult{}, perr
		}
		res.Stage, res.Outcome = info, protocol.OutcomeStaged
	case protocol.ProfileSessionsRestore:
		if len(ext.Tabs) > protocol.MaxRestoreURLs {
			h.log.Printf("task %s: the extension restored %d tabs, over %d", task.ID, len(ext.Tabs), protocol.MaxRestoreURLs)
		}
		res.Tabs = []string{}
		for _, t := range ext.Tabs {
			opened, perr := h.recordOpened(ctx, task, t, store.SourceCreated, protocol.PlacementTab)
			if perr != nil {
				return protocol.ProfileResult{}, perr
			}
			res.Tabs = append(res.Tabs, opened.Tab.Tab)
		}
	default:
		for _, id := range ext.IDs {
			if !profileIDForm.MatchString(id) {
				return protocol.ProfileResult{}, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown,
					"the extension answered a write with an id that is not one", protocol.RecoveryUpdate)
			}
		}
		if ext.State != "" && !profileStateForm.MatchString(ext.State) {
			return protocol.ProfileResult{}, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown,
				"the extension answered a write with a state that is not one", protocol.RecoveryUpdate)
		}
		res.IDs, res.State = ext.IDs, ext.State
	}
	return res, nil
}

// recordProfileStage records bookmarks_remove's stage. It belongs to no
// tab and holds no step: only the fixed effect name, the fingerprint and
// preview digest the extension keyed with the review handle, and the
// handle's SHA-256 (spec 000: the host's staged record holds a fixed
// effect name and a fingerprint salted with the one-use token). The
// bookmark's id, title, URL and parent stay in extension storage.
func (h *Host) recordProfileStage(ctx context.Context, epoch uint64, task store.Task, st protocol.ExtStage) (*protocol.StageInfo, *protocol.Error) {
	if st.Step != 0 || st.Effect != protocol.EffectBookmarkRemove {
		return nil, badStageReport("effect")
	}
	if bad := stageReportProblem(st); bad != "" {
		return nil, badStageReport(bad)
	}
	now := h.now()
	rec, perr := h.createStage(ctx, epoch, store.Stage{
		ID: newStageID(), TaskID: task.ID, Step: json.RawMessage(`{}`), Effect: st.Effect, Fingerprint: st.Fingerprint,
		PreviewDigest: st.PreviewDigest, ReviewHandleHash: hexSHA256(st.ReviewHandle), State: protocol.StagePending,
		CreatedAt: now, ExpiresAt: now.Add(protocol.StageTTLMs * time.Millisecond),
	})
	if perr != nil {
		return nil, perr
	}
	h.log.Printf("task %s: staged a bookmark removal for review as %s (%s)", task.ID, rec.ID, rec.State)
	return &protocol.StageInfo{Stage: rec.ID, Effect: st.Effect, ExpiresInMs: protocol.StageTTLMs}, nil
}

// commitBookmarkRemove is browser_commit of an approved bookmark_remove
// stage (checkStage passed it: it has no tab): consumed durably first, as
// every commit, then the extension rechecks and removes.
func (h *Host) commitBookmarkRemove(ctx context.Context, task store.Task, st store.Stage) (protocol.CommitResult, *protocol.Error) {
	st, perr := h.consumeStage(ctx, task, st)
	if perr != nil {
		return protocol.CommitResult{}, perr
	}
	params := protocol.ExtProfileParams{
		Task:   look(task),
		Params: protocol.ProfileParams{Op: protocol.ProfileBookmarksRemove},
		Commit: &protocol.ExtProfileCommit{ReviewHandleDigest: st.ReviewHandleHash, Fingerprint: st.Fingerprint},
	}
	var ext protocol.ExtProfileResult
	if perr := h.extCall(ctx, profileTimeout, protocol.NativeProfile, params, &ext, protocol.OutcomeUnknown); perr != nil {
		// The extension's refusals (stage_target_changed when the
		// bookmark's title, URL or parent changed, bookmark_folder_not_empty,
		// stage_discarded) are not_started; the stage stays consumed.
		return protocol.CommitResult{}, perr
	}
	h.log.Printf("task %s: committed %s (%s)", task.ID, st.ID, st.Effect)
	return protocol.CommitResult{
		Stage: st.ID, Effect: st.Effect, Step: protocol.StepReceipt{Index: 0, Outcome: protocol.OutcomeConfirmed}, Outcome: protocol.OutcomeConfirmed,
	}, nil
}
