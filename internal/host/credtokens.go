package host

import (
	"crypto/rand"
	"encoding/base64"
	"slices"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/onepassword"
	"github.com/agenttab/agenttab/protocol"
)

// The broker's memory (ARCHITECTURE.md decision record "1Password
// broker"): one login per task and origin, and the tokens that point into
// it. Nothing here is ever written to state.db, the audit or the log:
// a host that restarts has forgotten every login and token, and the agent
// prepares again.

// loginKept is how long an untouched login is remembered: resumableFor,
// the longest a task outlives its connection, so a login lasts as long as
// its task can act. Within it a prepare on the same task and origin, from
// any of the task's tabs, continues the login (same candidate, same
// attempt): a navigation or a new tab invalidates tokens, not the attempt
// count, so max_attempts cannot be reset by preparing again.
const loginKept = resumableFor

// credentialTokenTTL is a token's life (protocol.CredentialTokenTTLMs).
const credentialTokenTTL = protocol.CredentialTokenTTLMs * time.Millisecond

// loginKey is one login: the task and the tab's origin, not the tab, so
// that every tab of the task on that origin shares one attempt budget.
type loginKey struct {
	task   string
	origin string
}

// login is one login's progress. items are the matching Login items in
// op's order; their ids live only here.
type login struct {
	items     []onepassword.Login
	candidate int // 1-based
	attempt   int // 1-based
	has       onepassword.Has
	// filled are the fields written at this candidate and attempt: a
	// password or code written again is the next attempt (credFill).
	filled    map[protocol.CredentialField]bool
	exhausted bool
	touched   time.Time
}

// grant is what a token stands for: one use, for the login's candidate and
// attempt as they were, on the tab at the revision it was made for.
type grant struct {
	key       loginKey
	handle    string
	tabID     int // Chrome's id of the tab the token was made on
	revision  int64
	candidate int
	attempt   int
	expires   time.Time
}

type credBroker struct {
	// timeout bounds each op call; zero is onepassword.DefaultTimeout
	// (tests shorten it).
	timeout time.Duration

	mu     sync.Mutex
	logins map[loginKey]*login
	tokens map[string]grant
}

// forget drops what has expired.
func (b *credBroker) forget(now time.Time) {
	for tok, g := range b.tokens {
		if !now.Before(g.expires) {
			delete(b.tokens, tok)
		}
	}
	for k, l := range b.logins {
		if now.Sub(l.touched) >= loginKept {
			delete(b.logins, k)
		}
	}
}

// begin returns the login for key: the remembered one when it is for the
// same items, else a new one at candidate 1, attempt 1.
func (b *credBroker) begin(key loginKey, items []onepassword.Login, now time.Time) *login {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forget(now)
	if b.logins == nil {
		b.logins = map[loginKey]*login{}
	}
	if l, ok := b.logins[key]; ok && sameItems(l.items, items) {
		l.touched = now
		return l
	}
	l := &login{items: items, candidate: 1, attempt: 1, touched: now}
	b.logins[key] = l
	return l
}

// moveTo puts the login at candidate and attempt, with nothing written
// there yet. Under b.mu.
func (l *login) moveTo(candidate, attempt int) {
	l.candidate, l.attempt, l.filled = candidate, attempt, nil
}

// wrote records that field was written; retry (a password or code written
// again at this position) moves the login to the next attempt first, same
// candidate. Under b.mu.
func (l *login) wrote(field protocol.CredentialField, retry bool) {
	if retry {
		l.moveTo(l.candidate, l.attempt+1)
	}
	if l.filled == nil {
		l.filled = map[protocol.CredentialField]bool{}
	}
	l.filled[field] = true
}

func sameItems(a, b []onepassword.Login) bool {
	return slices.EqualFunc(a, b, func(x, y onepassword.Login) bool { return x.ID == y.ID && x.Vault == y.Vault })
}

// issue makes a token for the login's candidate and attempt as they are.
func (b *credBroker) issue(key loginKey, handle string, tabID int, revision int64, l *login, now time.Time) string {
	var raw [32]byte // 256 random bits
	rand.Read(raw[:])
	tok := "cred_" + base64.RawURLEncoding.EncodeToString(raw[:])
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens == nil {
		b.tokens = map[string]grant{}
	}
	b.tokens[tok] = grant{key: key, handle: handle, tabID: tabID, revision: revision, candidate: l.candidate, attempt: l.attempt, expires: now.Add(credentialTokenTTL)}
	return tok
}

// take spends a token: it is gone whatever happens next. It answers the
// grant and its login when the token is the task's, unexpired, and its
// login is still at the token's candidate and attempt.
func (b *credBroker) take(tok, task string, now time.Time) (grant, *login, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forget(now)
	g, ok := b.tokens[tok]
	if !ok {
		return grant{}, nil, false
	}
	delete(b.tokens, tok)
	l := b.logins[g.key]
	if g.key.task != task || l == nil || l.exhausted || l.candidate != g.candidate || l.attempt != g.attempt {
		return grant{}, nil, false
	}
	l.touched = now
	return g, l, true
}

// locked runs f under the broker's lock (a login's fields change only so).
func (b *credBroker) locked(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f()
}
