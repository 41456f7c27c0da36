package host

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttab/agenttab/internal/onepassword/optest"
	"github.com/agenttab/agenttab/protocol"
)

// Canaries of the fake vault: none may reach a file of the state
// directory (state.db and its WAL, audit.jsonl, host.log) or a result.
const (
	canaryOpUser     = "CANARY-op-user-3f9a@bank.com"
	canaryOpPassword = "CANARY-op-password-8c1d"
	canaryOpOTP      = "913374"
	canaryOpTitle    = "CANARY-op-title-accounts.bank.com"
	canaryOpItem     = "itmcanary7b2e0000000000000"
)

func credentialVault() []optest.Item {
	return []optest.Item{
		{ID: canaryOpItem, Title: canaryOpTitle, URLs: []string{"https://www.bank.com/"}, Username: canaryOpUser, Password: canaryOpPassword, TOTP: canaryOpOTP},
		{ID: "itmsecond", Title: "Bank, second account", URLs: []string{"bank.com"}, Username: "second@bank.com", Password: "second-password"},
		// Look-alikes, and a title that names the site: never candidates.
		{ID: "itmlookalike", Title: "accounts.bank.com", URLs: []string{"https://bank.com.evil.com", "http://bank.com", "https://evil.com/bank.com"}, Username: "x", Password: "y"},
		{ID: "itmnote", Category: "SECURE_NOTE", URLs: []string{"https://bank.com"}},
	}
}

// startCredentialRig starts a host whose broker runs a fake op.
func startCredentialRig(t *testing.T, policyExtra string) (*rig, *optest.FakeOp, **Host) {
	t.Helper()
	op := optest.Build(t)
	op.WriteVault(t, credentialVault())
	exe, _ := json.Marshal(op.Path)
	var h *Host
	dir := tempStateDir(t)
	policy := fmt.Sprintf(`{"one_password":{"executable":%s%s}}`, exe, policyExtra)
	if err := os.WriteFile(dir.Policy(), []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	return startRig(t, withDir(dir), withHost(&h)), op, &h
}

func TestCredentialsFillChainKeepsValuesOut(t *testing.T) {
	r, op, _ := startCredentialRig(t, `,"max_attempts":2`)
	c, tab := openOneAt(t, r, "https://accounts.bank.com/signin?next=%2F")
	var results []protocol.CredentialsResult
	prep := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	results = append(results, prep)
	if prep.Candidates != 2 || prep.Candidate != 1 || prep.Attempt != 1 || prep.MaxAttempts != 2 || !prep.HasUsername || !prep.HasPassword || !prep.HasOTP ||
		!strings.HasPrefix(prep.Token, "cred_") || prep.ExpiresInMs != protocol.CredentialTokenTTLMs || prep.Outcome != protocol.OutcomeObserved {
		t.Fatalf("prepare: %+v", prep)
	}
	tok := prep.Token
	key := "0190b2a0-0000-7000-8000-000000000001"
	for i, field := range []protocol.CredentialField{protocol.CredentialUsername, protocol.CredentialPassword, protocol.CredentialOTP} {
		p := protocol.CredentialsParams{Action: protocol.CredentialFill, Token: tok, Ref: fmt.Sprintf("e%d", i+1), Field: field}
		if i == 0 {
			p.IdempotencyKey = key
		}
		res := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, p)
		results = append(results, res)
		if !res.Filled || res.Token == "" || res.Token == tok || res.Candidate != 1 || res.Attempt != 1 || res.Outcome != protocol.OutcomeConfirmed {
			t.Fatalf("fill %s: %+v", field, res)
		}
		tok = res.Token
		if i == 0 {
			// A replay answers the recorded result, without a token.
			again := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, p)
			if !again.Replay || !again.Filled || again.Token != "" {
				t.Fatalf("replay: %+v", again)
			}
		}
	}
	fills := r.ext.credentialFills()
	want := []string{canaryOpUser, canaryOpPassword, canaryOpOTP}
	if len(fills) != 3 {
		t.Fatalf("%d fills", len(fills))
	}
	for i, f := range fills {
		if f.Value != want[i] || f.TabID != r.ext.onlyTab(t) || f.Origin != "https://accounts.bank.com" || f.ExpectedPageRevision != 1 || f.Ref != fmt.Sprintf("e%d", i+1) {
			t.Errorf("fill %d: %+v", i, f)
		}
	}
	// A spent token is refused, and sends nothing.
	if e := callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialFill, Token: prep.Token, Ref: "e1", Field: protocol.CredentialUsername}); e.Code != protocol.CodeCredentialTokenInvalid || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("spent token: %+v", e)
	}
	// advance: candidate 2, then attempt 2 from candidate 1, then
	// candidate 2, then exhausted.
	for _, step := range [][2]int{{2, 1}, {1, 2}, {2, 2}} {
		res := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialAdvance, Token: tok})
		results = append(results, res)
		if res.Candidate != step[0] || res.Attempt != step[1] || res.Token == "" {
			t.Fatalf("advance to %v: %+v", step, res)
		}
		if step[0] == 2 && (res.HasOTP || !res.HasPassword) {
			t.Fatalf("candidate 2 has: %+v", res)
		}
		tok = res.Token
	}
	e := callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialAdvance, Token: tok})
	if e.Code != protocol.CodeNeedsUser || !strings.Contains(e.Recovery, "reason login") {
		t.Fatalf("exhausted: %+v", e)
	}
	// Preparing again does not give the attempts back.
	if e := callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab}); e.Code != protocol.CodeNeedsUser {
		t.Fatalf("prepare after exhaustion: %+v", e)
	}
	raw, _ := json.Marshal(results)
	for _, calls := range op.Calls(t) {
		if strings.Contains(calls, "itmlookalike") || strings.Contains(calls, "itmnote") {
			t.Errorf("op was asked for a look-alike: %s", calls)
		}
	}
	r.stop()
	canaries := []string{canaryOpUser, canaryOpPassword, canaryOpOTP, canaryOpTitle, canaryOpItem}
	for _, cn := range canaries {
		if strings.Contains(string(raw), cn) {
			t.Errorf("a result holds %q", cn)
		}
	}
	assertNoCanaries(t, string(r.dir), canaries)
}

// assertNoCanaries reads every file below dir (state.db and its WAL, the
// audit, host.log) for the canaries.
func assertNoCanaries(t *testing.T, dir string, canaries []string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeType != 0 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		n++
		for _, c := range canaries {
			if strings.Contains(string(b), c) {
				t.Errorf("%s holds %q", path, c)
			}
		}
		return nil
	})
	if n < 3 {
		t.Fatalf("read only %d files under %s", n, dir)
	}
}

func TestCredentialsNavigationInvalidatesTheToken(t *testing.T) {
	r, _, _ := startCredentialRig(t, "")
	c, tab := openOneAt(t, r, "https://login.bank.com/")
	prep := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	adv := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialAdvance, Token: prep.Token})
	if adv.Candidate != 2 {
		t.Fatalf("advance: %+v", adv)
	}
	id := r.ext.onlyTab(t)
	r.ext.navigates(id)
	fill := protocol.CredentialsParams{Action: protocol.CredentialFill, Token: adv.Token, Ref: "e1", Field: protocol.CredentialUsername}
	if e := callErr(t, c.Client, protocol.MethodCredentials, fill); e.Code != protocol.CodeCredentialTokenInvalid {
		t.Fatalf("after a navigation: %+v", e)
	}
	// Preparing again continues the login: still candidate 2.
	again := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	if again.Candidate != 2 || again.Attempt != 1 {
		t.Fatalf("prepare again: %+v", again)
	}
	// A navigation to another site invalidates it too.
	r.ext.goesTo(id, "https://bank.com.evil.com/login")
	fill.Token = again.Token
	if e := callErr(t, c.Client, protocol.MethodCredentials, fill); e.Code != protocol.CodeCredentialTokenInvalid {
		t.Fatalf("after leaving the site: %+v", e)
	}
	// Another task cannot spend a token.
	r.ext.goesTo(id, "https://login.bank.com/")
	mine := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	other, _ := openOne(t, r)
	fill.Token = mine.Token
	if e := callErr(t, other.Client, protocol.MethodCredentials, fill); e.Code != protocol.CodeCredentialTokenInvalid {
		t.Fatalf("another task: %+v", e)
	}
	if n := len(r.ext.credentialFills()); n != 0 {
		t.Fatalf("%d fills sent", n)
	}
}

func TestCredentialsNeedsUser(t *testing.T) {
	r, op, h := startCredentialRig(t, `,"max_candidates":1`)
	(*h).creds.timeout = 500 * time.Millisecond
	prepare := func(url string) *protocol.Error {
		t.Helper()
		c, tab := openOneAt(t, r, url)
		return callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	}
	// The look-alike item's own URLs would match the look-alike tabs below.
	op.WriteVault(t, credentialVault()[:2])
	// Two items match, one is allowed: none is selected or read.
	before := len(op.Calls(t))
	if e := prepare("https://login.bank.com/"); e.Code != protocol.CodeNeedsUser || e.Outcome != protocol.OutcomeNotStarted || !strings.Contains(e.Message, "max_candidates") {
		t.Fatalf("too many: %+v", e)
	}
	for _, call := range op.Calls(t)[before:] {
		if strings.HasPrefix(call, "item get") {
			t.Fatalf("an item was read: %s", call)
		}
	}
	for _, url := range []string{"https://bank.com.evil.com/", "http://bank.com/", "https://evil.com/bank.com", "https://bank.com@evil.com/", "https://xn--bnk-qla.com/"} {
		if e := prepare(url); e.Code != protocol.CodeNeedsUser || !strings.Contains(e.Message, "no 1Password Login item") {
			t.Errorf("%s: %+v", url, e)
		}
	}
	op.WriteVault(t, credentialVault()[:1])
	for mode, words := range map[optest.Mode]string{
		optest.ModeSignedOut:     "not signed in",
		optest.ModeDismissed:     "did not authorize",
		optest.ModeHang:          "did not authorize",
		optest.ModeProviderError: "1Password failed",
	} {
		op.SetMode(t, mode)
		start := time.Now()
		e := prepare("https://login.bank.com/")
		if e.Code != protocol.CodeNeedsUser || !strings.Contains(e.Message, words) || !strings.Contains(e.Recovery, "browser_handoff") || strings.Contains(e.Message, "[ERROR]") {
			t.Errorf("%s: %+v", mode, e)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("%s took %v", mode, time.Since(start))
		}
	}
	if n := len(r.ext.credentialFills()); n != 0 {
		t.Fatalf("%d fills sent", n)
	}
}

func TestCredentialsRefusedByPolicyAndParams(t *testing.T) {
	r := startRigWithPolicy(t, `{"one_password":{"enabled":false}}`)
	c, tab := openOne(t, r)
	if e := callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab}); e.Code != protocol.CodeOnePasswordDisabled {
		t.Fatalf("disabled: %+v", e)
	}
	r2, _, _ := startCredentialRig(t, "")
	c2, tab2 := openOne(t, r2)
	for name, p := range map[string]any{
		"no action":          protocol.CredentialsParams{Tab: tab2},
		"prepare with token": protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab2, Token: "cred_x"},
		"fill without ref":   protocol.CredentialsParams{Action: protocol.CredentialFill, Token: "cred_x", Field: protocol.CredentialPassword},
		"fill, bad field":    protocol.CredentialsParams{Action: protocol.CredentialFill, Token: "cred_x", Ref: "e1", Field: "pin"},
		"advance with ref":   protocol.CredentialsParams{Action: protocol.CredentialAdvance, Token: "cred_x", Ref: "e1"},
		"an origin argument": map[string]any{"action": "prepare", "tab": tab2, "origin": "https://bank.com"},
	} {
		if e := callErr(t, c2.Client, protocol.MethodCredentials, p); e.Code != protocol.CodeInvalidParams {
			t.Errorf("%s: %+v", name, e)
		}
	}
	other, _ := openOne(t, r2)
	if e := callErr(t, other.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab2}); e.Code != protocol.CodeNotOwned {
		t.Fatalf("another task's tab: %+v", e)
	}
}

// max_attempts bounds password fills whatever the agent calls: preparing
// again, chaining a fill's token into the same field, or a second tab of
// the same origin never gives attempts back.
func TestCredentialsAttemptsBoundedWhateverTheAgentCalls(t *testing.T) {
	r, _, _ := startCredentialRig(t, "")                 // max_attempts 3
	c, tabA := openOneAt(t, r, "https://bank.com/login") // one candidate: itmsecond
	call := func(p protocol.CredentialsParams) protocol.CredentialsResult {
		t.Helper()
		return rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, p)
	}
	prepare := func(tab string) protocol.CredentialsParams {
		return protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab}
	}
	password := func(tok string) protocol.CredentialsParams {
		return protocol.CredentialsParams{Action: protocol.CredentialFill, Token: tok, Ref: "e2", Field: protocol.CredentialPassword}
	}
	// prepare → fill, twice: the second password is attempt 2.
	for attempt := 1; attempt <= 2; attempt++ {
		// prepare continues the login: the password written at attempt 1
		// makes the next one written attempt 2, not this prepare.
		prep := call(prepare(tabA))
		if prep.Attempt != 1 {
			t.Fatalf("prepare %d: %+v", attempt, prep)
		}
		res := call(password(prep.Token))
		if res.Attempt != attempt || res.Candidate != 1 || !res.Filled {
			t.Fatalf("password %d: %+v", attempt, res)
		}
		if attempt == 2 {
			// fill → fill with the fill's own token, no prepare: attempt 3.
			if again := call(password(res.Token)); again.Attempt != 3 || !again.Filled {
				t.Fatalf("password 3: %+v", again)
			}
		}
	}
	// A second tab of the task on the same origin shares the login.
	opened := rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, protocol.OpenParams{URL: "https://bank.com/other", Mode: "create"})
	tabB := opened.Tab.Tab
	prepB := call(prepare(tabB))
	if prepB.Attempt != 3 || prepB.MaxAttempts != 3 {
		t.Fatalf("second tab: %+v", prepB)
	}
	if e := callErr(t, c.Client, protocol.MethodCredentials, password(prepB.Token)); e.Code != protocol.CodeNeedsUser || e.Outcome != protocol.OutcomeNotStarted || !strings.Contains(e.Message, "every attempt is used") {
		t.Fatalf("password 4: %+v", e)
	}
	for _, tab := range []string{tabA, tabB} {
		if e := callErr(t, c.Client, protocol.MethodCredentials, prepare(tab)); e.Code != protocol.CodeNeedsUser {
			t.Fatalf("prepare after exhaustion on %s: %+v", tab, e)
		}
	}
	if n := len(r.ext.credentialFills()); n != 3 {
		t.Fatalf("%d passwords sent, want max_attempts (3)", n)
	}
}

// A two-page login (password, then the code on the next page) is one
// attempt of one candidate: only a field written again is a retry.
func TestCredentialsTwoPageLoginIsOneAttempt(t *testing.T) {
	r, _, _ := startCredentialRig(t, `,"max_attempts":1`)
	c, tab := openOneAt(t, r, "https://login.bank.com/")
	prep := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	tok := prep.Token
	for _, field := range []protocol.CredentialField{protocol.CredentialUsername, protocol.CredentialPassword} {
		tok = rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialFill, Token: tok, Ref: "e1", Field: field}).Token
	}
	r.ext.navigates(r.ext.onlyTab(t))
	again := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	code := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialFill, Token: again.Token, Ref: "e1", Field: protocol.CredentialOTP})
	if again.Candidate != 1 || again.Attempt != 1 || code.Candidate != 1 || code.Attempt != 1 {
		t.Fatalf("prepare %+v, code %+v", again, code)
	}
	if fills := r.ext.credentialFills(); len(fills) != 3 || fills[2].Value != canaryOpOTP {
		t.Fatalf("fills %+v", fills)
	}
	// The code again is a retry, past max_attempts 1.
	if e := callErr(t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialFill, Token: code.Token, Ref: "e1", Field: protocol.CredentialOTP}); e.Code != protocol.CodeNeedsUser {
		t.Fatalf("code again: %+v", e)
	}
}

// A tab at https://bank.com./ (a trailing dot, as Chrome keeps it) is
// bank.com: the host sends the origin without the dot, as the extension
// compares it (credentials/fill.ts), and the value goes in.
func TestCredentialsTrailingDotHost(t *testing.T) {
	r, _, _ := startCredentialRig(t, "")
	c, tab := openOneAt(t, r, "https://bank.com./login")
	prep := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialPrepare, Tab: tab})
	if prep.Candidates != 1 {
		t.Fatalf("prepare: %+v", prep)
	}
	res := rpc[protocol.CredentialsResult](t, c.Client, protocol.MethodCredentials, protocol.CredentialsParams{Action: protocol.CredentialFill, Token: prep.Token, Ref: "e2", Field: protocol.CredentialPassword})
	fills := r.ext.credentialFills()
	if !res.Filled || len(fills) != 1 || fills[0].Origin != "https://bank.com" || fills[0].Value != "second-password" {
		t.Fatalf("fill %+v, sent %+v", res, fills)
	}
}
