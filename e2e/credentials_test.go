package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/internal/mcpserver"
	"github.com/agenttab/agenttab/internal/onepassword/optest"
	"github.com/agenttab/agenttab/protocol"
)

// The canaries of the fake 1Password vault: each must reach the login
// server, and nothing else.
const (
	credCanaryUser = "canary-user-5c1e@example.test"
	credCanaryPass = "CanaryPass-9d27b4"
	credCanaryOTP  = "CANARYOTP83"
)

// loginServer is the test's site: a login page with username, password and
// one-time-code fields, and a page-side counter of the input events any
// field received (shown as page text, never a value), and the form posts
// it received.
type loginServer struct {
	mu    sync.Mutex
	posts []map[string]string
}

const loginPage = `<!doctype html><title>Sign in</title>
<form method="post" action="/session">
<label>Email <input name="username" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<label>Code <input name="otp" type="text" inputmode="numeric" autocomplete="one-time-code"></label>
<label>Nickname <input name="nickname" type="text"></label>
<button>Sign in</button>
</form>
<p id="count">inputs: 0</p>
<script>
let n = 0;
document.addEventListener("input", () => { document.getElementById("count").textContent = "inputs: " + (++n); }, true);
</script>`

// framedPage is a login page embedding a third party's frame (another
// origin) with a password field of its own, and its own input counter.
const framedPage = `<!doctype html><title>Sign in</title>
<label>Password <input type="password"></label>
<iframe src="WIDGET/widget" title="Widget"></iframe>`

const widgetPage = `<!doctype html><title>Widget</title>
<label>Card PIN <input type="password"></label>
<p id="count">widget inputs: 0</p>
<script>
let n = 0;
document.addEventListener("input", () => { document.getElementById("count").textContent = "widget inputs: " + (++n); }, true);
</script>`

// trickyPage reformats its username (upper case) and, once its password
// field has focus, moves focus to the nickname field (in a microtask: after
// AgentTab readied the password field, before the text goes in).
const trickyPage = `<!doctype html><title>Sign in</title>
<label>Email <input id="user" type="email"></label>
<label>Password <input id="pw" type="password"></label>
<label>Nickname <input id="nick" type="text"></label>
<script>
user.addEventListener("input", () => { user.value = user.value.toUpperCase(); });
pw.addEventListener("focus", () => queueMicrotask(() => nick.focus()));
</script>`

func (l *loginServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case r.URL.Path == "/session" && r.Method == http.MethodPost:
		r.ParseForm()
		l.mu.Lock()
		l.posts = append(l.posts, map[string]string{"username": r.PostForm.Get("username"), "password": r.PostForm.Get("password"), "otp": r.PostForm.Get("otp")})
		l.mu.Unlock()
		// Never echoed: the page after the login shows none of them.
		w.Write([]byte(`<!doctype html><title>Welcome</title><h1>Signed in</h1>`))
	case r.URL.Path == "/other":
		w.Write([]byte(page("Other")))
	case r.URL.Path == "/framed":
		// Another origin on the same port: widget.localhost.
		w.Write([]byte(strings.Replace(framedPage, "WIDGET", "http://widget."+strings.TrimPrefix(r.Host, "app."), 1)))
	case r.URL.Path == "/widget":
		w.Write([]byte(widgetPage))
	case r.URL.Path == "/tricky":
		w.Write([]byte(trickyPage))
	default:
		// Any other path is the login page (the path-trick URLs too).
		w.Write([]byte(loginPage))
	}
}

func (l *loginServer) received() []map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]map[string]string(nil), l.posts...)
}

// credEnv is one test's AgentTab with a fake op and the login site on
// http://app.localhost:PORT (Chromium resolves *.localhost to loopback,
// so a second host name needs no DNS).
type credEnv struct {
	e      *harness.Env
	op     *optest.FakeOp
	site   *loginServer
	port   string
	origin string // http://app.localhost:PORT
	s      *mcp.ClientSession
	// Every MCP result of the run, whole (content and structured content).
	results []string
}

func startCredEnv(t *testing.T, policy string) *credEnv {
	op := optest.Build(t)
	e := harness.Start(t, harness.WithPolicy(fmt.Sprintf(`{"one_password":{"executable":%q%s}}`, op.Path, policy)))
	c := &credEnv{e: e, op: op, site: &loginServer{}}
	base := e.Serve(c.site)
	c.port = base[strings.LastIndex(base, ":")+1:]
	c.origin = "http://app.localhost:" + c.port
	c.s = e.MCP(t)
	return c
}

// item is a Login item for url with the canaries.
func (c *credEnv) item(id, url string) optest.Item {
	return optest.Item{ID: id, Title: "App " + id, URLs: []string{url}, Username: credCanaryUser, Password: credCanaryPass, TOTP: credCanaryOTP}
}

// call calls a tool, keeping its whole result.
func (c *credEnv) call(t *testing.T, tool string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := c.s.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", tool, err)
	}
	raw, _ := json.Marshal(res)
	c.results = append(c.results, string(raw))
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out == nil {
		t.Fatalf("%s: no structured result: %s", tool, raw)
	}
	// A snapshot's tree is in the text content only (harness/mcp.go reads it the same way).
	if _, has := out["text"]; !has && out["coverage"] != nil {
		out["text"] = mcpserver.SnapshotTree(res)
	}
	return out, res.IsError
}

func (c *credEnv) ok(t *testing.T, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, isErr := c.call(t, tool, args)
	if isErr {
		t.Fatalf("%s %v failed: %v", tool, args, res)
	}
	return res
}

func (c *credEnv) refused(t *testing.T, tool string, args map[string]any, code protocol.ErrorCode) map[string]any {
	t.Helper()
	res, isErr := c.call(t, tool, args)
	if !isErr || res["code"] != string(code) {
		t.Fatalf("%s %v: %v (error %v), want %s", tool, args, res, isErr, code)
	}
	if r, _ := res["recovery"].(string); r == "" {
		t.Fatalf("%s: failure without recovery text: %v", tool, res)
	}
	return res
}

func (c *credEnv) open(t *testing.T, url string) string {
	t.Helper()
	return handleOf(t, c.ok(t, protocol.MethodOpen, map[string]any{"url": url}))
}

func (c *credEnv) snap(t *testing.T, tab string, extra map[string]any) (string, int64, map[string]any) {
	t.Helper()
	args := map[string]any{"tab": tab}
	for k, v := range extra {
		args[k] = v
	}
	res := c.ok(t, protocol.MethodSnapshot, args)
	text, _ := res["text"].(string)
	return text, revisionOf(res), res
}

func (c *credEnv) prepare(t *testing.T, tab string) map[string]any {
	t.Helper()
	return c.ok(t, protocol.MethodCredentials, map[string]any{"action": "prepare", "tab": tab})
}

func (c *credEnv) fill(t *testing.T, token, ref, field string) map[string]any {
	t.Helper()
	res := c.ok(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": token, "ref": ref, "field": field})
	if res["filled"] != true {
		t.Fatalf("fill %s into %s: %v, want filled", field, ref, res)
	}
	return res
}

func tokenOf(t *testing.T, res map[string]any) string {
	t.Helper()
	tok, _ := res["token"].(string)
	if tok == "" {
		t.Fatalf("no token in %v", res)
	}
	return tok
}

// noCanary fails when text holds a canary.
func noCanary(t *testing.T, what, text string) {
	t.Helper()
	for _, c := range []string{credCanaryUser, credCanaryPass, credCanaryOTP} {
		if strings.Contains(text, c) {
			t.Errorf("%s holds the canary %q", what, c)
		}
	}
}

// An agent signs in with browser_credentials: prepare on the login tab,
// fill username, password and one-time code by ref, submit with
// browser_act. The server sees the three values; they appear nowhere else:
// no MCP result, audit.jsonl, host.log, state.db or its WAL, no file name
// under the state directory (screenshots), no extension storage, no
// snapshot after the fill (the username field's value is left out too).
// A password into a field that is not a password field is refused
// credential_field_unfit with nothing written; type into the password
// field stays sensitive_field; a navigation between prepare and fill
// kills the token (credential_token_invalid).
func TestCredentialsFillLoginAndLeaveNoTrace(t *testing.T) {
	c := startCredEnv(t, "")
	c.op.WriteVault(t, []optest.Item{c.item("itm1", c.origin+"/")})
	tab := c.open(t, c.origin+"/login")
	text, rev, _ := c.snap(t, tab, nil)
	email, password, code, nickname := refOf(t, text, "textbox", "Email"), refOf(t, text, "textbox", "Password"), refOf(t, text, "textbox", "Code"), refOf(t, text, "textbox", "Nickname")

	prepared := c.prepare(t, tab)
	if prepared["candidates"] != float64(1) || prepared["has_username"] != true || prepared["has_password"] != true || prepared["has_one_time_code"] != true {
		t.Fatalf("prepare: %v, want one candidate with username, password and code", prepared)
	}
	// Refusals first: nothing reaches the page.
	tok := tokenOf(t, prepared)
	c.refused(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": tok, "ref": nickname, "field": "password"}, protocol.CodeCredentialFieldUnfit)
	text, _, _ = c.snap(t, tab, nil)
	if !strings.Contains(text, "inputs: 0") {
		t.Fatalf("a refused fill reached the page:\n%s", text)
	}
	actRefused(t, c.s, tab, rev, protocol.CodeSensitiveField, 0, step("type", "ref", password, "text", "typed"))

	// The refusal used no token: prepare again (a token works once, and
	// a refused fill spends it).
	tok = tokenOf(t, c.prepare(t, tab))
	tok = tokenOf(t, c.fill(t, tok, email, "username"))
	tok = tokenOf(t, c.fill(t, tok, password, "password"))
	c.fill(t, tok, code, "one_time_code")

	after, rev, _ := c.snap(t, tab, nil)
	noCanary(t, "the snapshot after the fill", after)
	if !strings.Contains(after, "inputs: 3") {
		t.Errorf("the page counted other than three inputs:\n%s", after)
	}
	actRefused(t, c.s, tab, rev, protocol.CodeSensitiveField, 0, step("type", "ref", password, "text", "more"))
	shot := c.ok(t, protocol.MethodSnapshot, map[string]any{"tab": tab, "screenshot": "viewport", "max_chars": 200})
	if s, _ := shot["screenshot"].(map[string]any); s == nil {
		t.Errorf("no screenshot: %v", shot)
	}

	acted := c.ok(t, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("click", "ref", refOf(t, after, "button", "Sign in"))}})
	c.ok(t, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "Signed in", "timeout_ms": 5000})
	got := c.site.received()
	if want := (map[string]string{"username": credCanaryUser, "password": credCanaryPass, "otp": credCanaryOTP}); len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprint(want) {
		t.Fatalf("the server received %v, want the three canaries once (act %v)", got, acted)
	}

	// A navigation between prepare and fill kills the token.
	_, rev, _ = c.snap(t, tab, nil)
	c.ok(t, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("navigate", "url", c.origin+"/login")}})
	text, rev, _ = c.snap(t, tab, nil)
	tok = tokenOf(t, c.prepare(t, tab))
	c.ok(t, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": rev, "actions": []any{step("navigate", "url", c.origin+"/login?again")}})
	c.refused(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": tok, "ref": refOf(t, text, "textbox", "Email"), "field": "username"}, protocol.CodeCredentialTokenInvalid)
	text, _, _ = c.snap(t, tab, nil)
	if !strings.Contains(text, "inputs: 0") {
		t.Errorf("the fill with a dead token reached the page:\n%s", text)
	}

	for _, r := range c.results {
		noCanary(t, "an MCP result", r)
	}
	var local, session any
	c.e.Eval(t, `chrome.storage.local.get(null)`, &local)
	c.e.Eval(t, `chrome.storage.session.get(null)`, &session)
	b, _ := json.Marshal([]any{local, session})
	noCanary(t, "the extension's storage", string(b))
	noSecretInState(t, c.e, "", credCanaryUser, credCanaryPass, credCanaryOTP)
	filepath.WalkDir(c.e.StateDir, func(path string, _ fs.DirEntry, _ error) error {
		noCanary(t, "a file name under the state directory", path)
		return nil
	})
}

// A look-alike of the item's site gets no candidate (needs_user): another
// registrable domain (app-evil.localhost), the item's site in a URL's path
// or user info on another host, and the same host over http while the
// item is saved for https. The item's own site gets it (the control).
func TestCredentialsLookAlikeOriginsGetNothing(t *testing.T) {
	c := startCredEnv(t, "")
	c.op.WriteVault(t, []optest.Item{c.item("itm1", c.origin+"/login")})
	host := "app.localhost:" + c.port
	for _, url := range []string{
		"http://app-evil.localhost:" + c.port + "/login",
		"http://evil.localhost:" + c.port + "/" + host + "/login",
		"http://" + host + "@evil.localhost:" + c.port + "/login",
	} {
		tab := c.open(t, url)
		res := c.refused(t, protocol.MethodCredentials, map[string]any{"action": "prepare", "tab": tab}, protocol.CodeNeedsUser)
		if res["token"] != nil {
			t.Errorf("%s: a token for a look-alike: %v", url, res)
		}
	}
	tab := c.open(t, c.origin+"/login")
	if got := c.prepare(t, tab); got["candidates"] != float64(1) {
		t.Fatalf("the item's own site: %v, want one candidate", got)
	}
	c.op.WriteVault(t, []optest.Item{c.item("itm1", "https://"+host+"/login")})
	c.refused(t, protocol.MethodCredentials, map[string]any{"action": "prepare", "tab": tab}, protocol.CodeNeedsUser)
	for _, r := range c.results {
		noCanary(t, "an MCP result", r)
	}
}

// max_candidates: three matching items with max_candidates 2 is
// needs_user, with no token and no item read (op item get never runs).
// max_attempts: advancing past the limit is needs_user.
func TestCredentialsCandidateAndAttemptLimits(t *testing.T) {
	c := startCredEnv(t, `,"max_candidates":2,"max_attempts":2`)
	c.op.WriteVault(t, []optest.Item{c.item("itm1", c.origin+"/"), c.item("itm2", c.origin+"/login"), c.item("itm3", c.origin)})
	tab := c.open(t, c.origin+"/login")
	res := c.refused(t, protocol.MethodCredentials, map[string]any{"action": "prepare", "tab": tab}, protocol.CodeNeedsUser)
	if res["token"] != nil {
		t.Errorf("a token with too many candidates: %v", res)
	}
	for _, call := range c.op.Calls(t) {
		if strings.Contains(call, "item get") {
			t.Errorf("an item was read with too many candidates: op %s", call)
		}
	}

	c.op.WriteVault(t, []optest.Item{c.item("itm1", c.origin+"/")})
	prepared := c.prepare(t, tab)
	if prepared["attempt"] != float64(1) || prepared["max_attempts"] != float64(2) {
		t.Fatalf("prepare: %v, want attempt 1 of 2", prepared)
	}
	tok := tokenOf(t, prepared)
	advanced := c.ok(t, protocol.MethodCredentials, map[string]any{"action": "advance", "token": tok})
	if advanced["attempt"] != float64(2) {
		t.Fatalf("advance: %v, want attempt 2", advanced)
	}
	c.refused(t, protocol.MethodCredentials, map[string]any{"action": "advance", "token": tokenOf(t, advanced)}, protocol.CodeNeedsUser)
	for _, r := range c.results {
		noCanary(t, "an MCP result", r)
	}
}

// A fill stays in its field: a password field in another origin's iframe
// on the login page is refused credential_field_unfit with nothing
// written there (the iframe's own counter); a username the page reformats
// stays out of snapshots; a password whose field lost focus to another
// field before the text went in is cleared from that field, and the
// failure says so.
func TestCredentialsFillStaysInItsField(t *testing.T) {
	c := startCredEnv(t, "")
	c.op.WriteVault(t, []optest.Item{c.item("itm1", c.origin+"/")})
	tab := c.open(t, c.origin+"/framed")
	c.ok(t, protocol.MethodWait, map[string]any{"tab": tab, "until": "text", "text": "widget inputs: 0", "timeout_ms": 5000})
	text, _, _ := c.snap(t, tab, nil)
	pin := refOf(t, text, "textbox", "Card PIN")
	res := c.refused(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": tokenOf(t, c.prepare(t, tab)), "ref": pin, "field": "password"}, protocol.CodeCredentialFieldUnfit)
	if res["outcome"] != string(protocol.OutcomeNotStarted) {
		t.Errorf("the refusal's outcome: %v, want not_started", res)
	}
	text, _, _ = c.snap(t, tab, nil)
	if !strings.Contains(text, "widget inputs: 0") {
		t.Fatalf("a fill into another origin's frame reached it:\n%s", text)
	}
	// The page's own password field takes it (the control).
	c.fill(t, tokenOf(t, c.prepare(t, tab)), refOf(t, text, "textbox", "Password"), "password")

	tab = c.open(t, c.origin+"/tricky")
	text, _, _ = c.snap(t, tab, nil)
	c.refused(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": tokenOf(t, c.prepare(t, tab)), "ref": refOf(t, text, "textbox", "Email"), "field": "username"}, protocol.CodeValueNotAccepted)
	res = c.refused(t, protocol.MethodCredentials, map[string]any{"action": "fill", "token": tokenOf(t, c.prepare(t, tab)), "ref": refOf(t, text, "textbox", "Password"), "field": "password"}, protocol.CodeValueNotAccepted)
	if msg, _ := res["message"].(string); !strings.Contains(msg, "was cleared") {
		t.Errorf("the failure does not say the stray value was cleared: %v", res)
	}
	text, _, _ = c.snap(t, tab, nil)
	noCanary(t, "the snapshot after the fills", text)
	if strings.Contains(text, strings.ToUpper(credCanaryUser)) {
		t.Errorf("the reformatted username shows:\n%s", text)
	}
	for _, r := range c.results {
		noCanary(t, "an MCP result", r)
	}
}
