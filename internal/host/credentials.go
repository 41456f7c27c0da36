package host

import (
	"context"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/onepassword"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// browser_credentials, the host's half of the 1Password broker (spec 000's
// broker paragraphs; protocol/credentials.go; ARCHITECTURE.md decision
// record "1Password broker"). prepare reads the tab's origin from Chrome
// (the extension's tabs answer, never the agent), lists the Login items
// whose URLs match it (internal/onepassword) and answers a token for
// candidate 1, attempt 1; fill spends a token, reads the one value from op
// into a byte slice, sends it to the extension in NativeCredentialFill and
// wipes it; advance moves to the next candidate, then the next attempt. A
// password or code filled again at the same candidate and attempt (a
// retry after a failed submit, whatever the agent called in between) is
// the next attempt, so max_attempts bounds fills whatever the agent calls.
// Results carry counts, booleans, attempt counters and tokens only; item
// ids stay in credtokens.go's memory; the log and the audit see no value,
// item id or title. Every 1Password failure is needs_user: the agent hands
// the login to the user.

const credentialFillTimeout = 15 * time.Second

// recoveryHandOffLogin is every needs_user's recovery here.
const recoveryHandOffLogin = "Hand the login to the user: browser_handoff with action request, reason login, on this tab; the user signs in in Chrome (or unlocks 1Password, or picks the account), then you continue."

func credNeedsUser(msg string) *protocol.Error {
	return protocol.NewError(protocol.CodeNeedsUser, protocol.OutcomeNotStarted, msg, recoveryHandOffLogin)
}

// credentials serves browser_credentials.
func (h *Host) credentials(ctx context.Context, c *call) (any, error) {
	if !h.policy.OnePassword.Enabled {
		return nil, protocol.Fail(protocol.CodeOnePasswordDisabled, "the user's policy.json turns the 1Password broker off (one_password.enabled is false)")
	}
	var p protocol.CredentialsParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkCredentialParams(p); perr != nil {
		return nil, perr
	}
	fields := func(r *protocol.CredentialsResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome }
	if p.Action == protocol.CredentialPrepare {
		// prepare changes nothing in the page and spends no token: a key,
		// if the client sends one, has nothing to guard.
		return taskRead(h, ctx, c, fields, func(task store.Task) (protocol.CredentialsResult, *protocol.Error) {
			return h.credPrepare(ctx, task, p.Tab)
		})
	}
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return taskMutation(h, ctx, c, protocol.MethodCredentials, key, p, fields,
		func(task store.Task) (protocol.CredentialsResult, *protocol.Error) {
			if p.Action == protocol.CredentialFill {
				return h.credFill(ctx, task, p)
			}
			return h.credAdvance(ctx, task, p.Token)
		})
}

func checkCredentialParams(p protocol.CredentialsParams) *protocol.Error {
	bad := func(msg string) *protocol.Error { return protocol.Fail(protocol.CodeInvalidParams, msg) }
	if perr := oneOf("action", p.Action, protocol.CredentialActions); perr != nil {
		return perr
	}
	switch p.Action {
	case protocol.CredentialPrepare:
		if p.Tab == "" || p.Token != "" || p.Ref != "" || p.Field != "" {
			return bad("prepare takes tab only: the tab whose login form you want filled")
		}
	case protocol.CredentialFill:
		if p.Tab != "" || p.Token == "" || p.Ref == "" {
			return bad("fill takes token (from prepare, or the previous fill), ref (the field) and field; the token names the tab")
		}
		if perr := oneOf("field", p.Field, protocol.CredentialFields); perr != nil {
			return perr
		}
	case protocol.CredentialAdvance:
		if p.Tab != "" || p.Token == "" || p.Ref != "" || p.Field != "" {
			return bad("advance takes token only")
		}
	}
	return nil
}

func (h *Host) opClient() onepassword.Client {
	return onepassword.Client{Executable: h.policy.OnePassword.Executable, Timeout: h.creds.timeout}
}

// chromeTab is the tab as Chrome has it now, from the extension: its URL
// is the only source of the origin.
func (h *Host) chromeTab(ctx context.Context, taskID string, tab store.OwnedTab) (protocol.ExtTab, *protocol.Error) {
	var ext protocol.ExtTabsResult
	if perr := h.extCall(ctx, tabsTimeout, protocol.NativeTabs, protocol.ExtTabsParams{TaskID: taskID, TabIDs: []int{tab.ChromeTabID}}, &ext, protocol.OutcomeNotStarted); perr != nil {
		return protocol.ExtTab{}, perr
	}
	for _, r := range ext.Revoked {
		if err := h.revoke(ctx, r.TabID, r.Reason); err != nil {
			return protocol.ExtTab{}, internalError("revoking", err)
		}
	}
	for _, t := range ext.Tabs {
		if t.TabID == tab.ChromeTabID {
			h.raiseFloor(ctx, t.TabID, t.Revision)
			return t, nil
		}
	}
	return protocol.ExtTab{}, notOwned(tab.Handle)
}

// opFailure turns an op failure into needs_user, in the broker's words.
func opFailure(err error) *protocol.Error {
	switch onepassword.KindOf(err) {
	case onepassword.KindSignedOut:
		return credNeedsUser("1Password is not signed in on this computer (the op CLI has no session), so AgentTab cannot fill this login")
	case onepassword.KindAuthorization, onepassword.KindTimeout:
		return credNeedsUser("1Password did not authorize AgentTab's request (" + err.Error() + "); the user must approve it in the 1Password app or sign in themselves")
	case onepassword.KindNotInstalled, onepassword.KindUnsupported:
		return credNeedsUser(err.Error())
	}
	return credNeedsUser("1Password failed: " + err.Error())
}

func (h *Host) credPrepare(ctx context.Context, task store.Task, handle string) (protocol.CredentialsResult, *protocol.Error) {
	tab, perr := h.ownedTab(ctx, task.ID, handle)
	if perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	live, perr := h.chromeTab(ctx, task.ID, tab)
	if perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	origin, ok := onepassword.ParseOrigin(live.URL)
	if !ok {
		return protocol.CredentialsResult{}, credNeedsUser(fmt.Sprintf("tab %s is not on an http or https page: there is no login 1Password could fill", handle))
	}
	all, err := h.opClient().Logins(ctx)
	if err != nil {
		return protocol.CredentialsResult{}, opFailure(err)
	}
	items := origin.Candidates(all)
	max := h.policy.OnePassword.MaxCandidates
	switch {
	case len(items) == 0:
		return protocol.CredentialsResult{}, credNeedsUser("no 1Password Login item has a website matching " + origin.String())
	case len(items) > max:
		return protocol.CredentialsResult{}, credNeedsUser(fmt.Sprintf("%d 1Password Login items match %s, more than the %d the policy lets AgentTab choose from (one_password.max_candidates): it selects none", len(items), origin.String(), max))
	}
	key := loginKey{task: task.ID, origin: origin.String()}
	l := h.creds.begin(key, items, h.now())
	var exhausted bool
	var candidate onepassword.Login
	h.creds.locked(func() { exhausted, candidate = l.exhausted, l.items[l.candidate-1] })
	if exhausted {
		return protocol.CredentialsResult{}, credNeedsUser(exhaustedMessage(len(items), h.policy.OnePassword.MaxAttempts))
	}
	if perr := h.credLoadHas(ctx, l, candidate, origin); perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	res := h.credResult(protocol.CredentialPrepare, key, handle, live.TabID, live.Revision, l)
	res.Outcome = protocol.OutcomeObserved
	return res, nil
}

// credLoadHas reads which fields the candidate has (op item get; the
// values are wiped inside onepassword at once).
func (h *Host) credLoadHas(ctx context.Context, l *login, candidate onepassword.Login, origin onepassword.Origin) *protocol.Error {
	has, _, err := h.opClient().Get(ctx, candidate, origin, "")
	if err != nil {
		return opFailure(err)
	}
	if has == (onepassword.Has{}) {
		return credNeedsUser("the matching 1Password item has no username, password or one-time code")
	}
	h.creds.locked(func() { l.has = has })
	return nil
}

// credResult answers the login as it is, with a fresh token.
func (h *Host) credResult(action protocol.CredentialAction, key loginKey, handle string, tabID int, revision int64, l *login) protocol.CredentialsResult {
	tok := h.creds.issue(key, handle, tabID, revision, l, h.now())
	var res protocol.CredentialsResult
	h.creds.locked(func() {
		res = protocol.CredentialsResult{
			Action: action, Candidates: len(l.items), Candidate: l.candidate, Attempt: l.attempt, MaxAttempts: h.policy.OnePassword.MaxAttempts,
			HasUsername: l.has.Username, HasPassword: l.has.Password, HasOTP: l.has.OTP,
			Token: tok, ExpiresInMs: credentialTokenTTL.Milliseconds(), Outcome: protocol.OutcomeConfirmed,
		}
	})
	return res
}

func exhaustedMessage(candidates, attempts int) string {
	return fmt.Sprintf("every attempt is used: %d candidate(s) × %d attempt(s) (one_password.max_attempts) did not get through this login", candidates, attempts)
}

func tokenInvalid(msg string) *protocol.Error {
	return protocol.Fail(protocol.CodeCredentialTokenInvalid, msg)
}

// credSpend spends a token and checks that its tab is still owned, on the
// origin and at the page revision it was made for.
func (h *Host) credSpend(ctx context.Context, task store.Task, tok string) (grant, *login, protocol.ExtTab, onepassword.Origin, *protocol.Error) {
	g, l, ok := h.creds.take(tok, task.ID, h.now())
	if !ok {
		return grant{}, nil, protocol.ExtTab{}, onepassword.Origin{}, tokenInvalid("the token is unknown, already used, expired, another task's, or its login moved on")
	}
	tab, perr := h.ownedTab(ctx, task.ID, g.handle)
	if perr != nil {
		return grant{}, nil, protocol.ExtTab{}, onepassword.Origin{}, perr
	}
	live, perr := h.chromeTab(ctx, task.ID, tab)
	if perr != nil {
		return grant{}, nil, protocol.ExtTab{}, onepassword.Origin{}, perr
	}
	origin, ok := onepassword.ParseOrigin(live.URL)
	if !ok || origin.String() != g.key.origin || live.TabID != g.tabID || live.Revision != g.revision {
		return grant{}, nil, protocol.ExtTab{}, onepassword.Origin{}, tokenInvalid(fmt.Sprintf("tab %s navigated since the token was made (page revision %d, now %d)", g.handle, g.revision, live.Revision))
	}
	return g, l, live, origin, nil
}

func (h *Host) credFill(ctx context.Context, task store.Task, p protocol.CredentialsParams) (protocol.CredentialsResult, *protocol.Error) {
	g, l, live, origin, perr := h.credSpend(ctx, task, p.Token)
	if perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	// A password or code already written at this candidate and attempt
	// is a retry: the next attempt, same candidate (its username is in
	// the form), or needs_user past max_attempts, before op is asked.
	maxAttempts := h.policy.OnePassword.MaxAttempts
	secret := p.Field == protocol.CredentialPassword || p.Field == protocol.CredentialOTP
	var candidate onepassword.Login
	var retry, exhausted bool
	var candidates int
	h.creds.locked(func() {
		candidate, candidates = l.items[l.candidate-1], len(l.items)
		retry = secret && l.filled[p.Field]
		if retry && l.attempt >= maxAttempts {
			l.exhausted = true
		}
		exhausted = l.exhausted
	})
	if exhausted {
		return protocol.CredentialsResult{}, credNeedsUser(exhaustedMessage(candidates, maxAttempts))
	}
	_, value, err := h.opClient().Get(ctx, candidate, origin, p.Field)
	if err != nil {
		return protocol.CredentialsResult{}, opFailure(err)
	}
	params := protocol.ExtCredentialFillParams{
		TaskID: task.ID, TabID: live.TabID, ExpectedPageRevision: g.revision, Origin: origin.String(),
		Ref: p.Ref, Field: p.Field, Value: string(value),
	}
	// The string above is the one copy the native message needs; the
	// slice op's output was unquoted into goes now.
	onepassword.Wipe(value)
	var out protocol.ExtCredentialFillResult
	// The extension may have written the field when no answer comes.
	perr = h.extCall(ctx, credentialFillTimeout, protocol.NativeCredentialFill, params, &out, protocol.OutcomeUnknown)
	params.Value = ""
	if perr == nil || perr.Outcome != protocol.OutcomeNotStarted {
		// Written, or perhaps written: it counts.
		h.creds.locked(func() { l.wrote(p.Field, retry) })
	}
	if perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	res := h.credResult(protocol.CredentialFill, g.key, g.handle, g.tabID, g.revision, l)
	res.Filled = out.Filled
	return res, nil
}

func (h *Host) credAdvance(ctx context.Context, task store.Task, tok string) (protocol.CredentialsResult, *protocol.Error) {
	g, l, _, origin, perr := h.credSpend(ctx, task, tok)
	if perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	maxAttempts := h.policy.OnePassword.MaxAttempts
	var exhausted bool
	var candidate onepassword.Login
	var candidates int
	h.creds.locked(func() {
		candidates = len(l.items)
		switch {
		case l.candidate < len(l.items):
			l.moveTo(l.candidate+1, l.attempt)
		case l.attempt < maxAttempts:
			l.moveTo(1, l.attempt+1)
		default:
			l.exhausted = true
		}
		exhausted, candidate = l.exhausted, l.items[l.candidate-1]
	})
	if exhausted {
		return protocol.CredentialsResult{}, credNeedsUser(exhaustedMessage(candidates, maxAttempts))
	}
	if perr := h.credLoadHas(ctx, l, candidate, origin); perr != nil {
		return protocol.CredentialsResult{}, perr
	}
	return h.credResult(protocol.CredentialAdvance, g.key, g.handle, g.tabID, g.revision, l), nil
}
