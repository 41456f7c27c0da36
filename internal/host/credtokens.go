package host

import (
	"crypto/rand"
	"encoding/base64"
	"slices"
	"sync"
	"time"

	"github.com/agenttab/agenttab/internal/onepassword"
)

// The broker's memory (ARCHITECTURE.md decision record "1Password
// broker"): one login per task, tab and origin, and the tokens that point
// into it. Nothing here is ever written to state.db, the audit or the log:
// a host that restarts has forgotten every login and token, and the agent
// prepares again.

// loginIdle is how long an untouched login is remembered. Within it a
// prepare on the same task, tab and origin continues the login (same
// candidate, same attempt): a navigation invalidates tokens, not the
// attempt count, so max_attempts cannot be reset by preparing again.
const loginIdle = 15 * time.Minute

// credentialTokenTTL is a token's life (spec 000: five minutes).
const credentialTokenTTL = 5 * time.Minute

type loginKey struct {
	task   string
	tab    int // Chrome's tab id
	origin string
}

// login is one login's progress. items are the matching Login items in
// op's order; their ids live only here.
type login struct {
	items     []onepassword.Login
	candidate int // 1-based
	attempt   int // 1-based
	has       onepassword.Has
	exhausted bool
	touched   time.Time
}

// grant is what a token stands for: one use, for the login's candidate and
// attempt as they were, on the tab at the revision it was made for.
type grant struct {
	key       loginKey
	handle    string
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
		if now.Sub(l.touched) >= loginIdle {
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

func sameItems(a, b []onepassword.Login) bool {
	return slices.EqualFunc(a, b, func(x, y onepassword.Login) bool { return x.ID == y.ID && x.Vault == y.Vault })
}

// issue makes a token for the login's candidate and attempt as they are.
func (b *credBroker) issue(key loginKey, handle string, revision int64, l *login, now time.Time) string {
	var raw [32]byte // 256 random bits
	rand.Read(raw[:])
	tok := "cred_" + base64.RawURLEncoding.EncodeToString(raw[:])
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens == nil {
		b.tokens = map[string]grant{}
	}
	b.tokens[tok] = grant{key: key, handle: handle, revision: revision, candidate: l.candidate, attempt: l.attempt, expires: now.Add(credentialTokenTTL)}
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
