package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/e2e/harness"
	"github.com/agenttab/agenttab/protocol"
)

// Canaries a challenge page holds in each place spec 000 keeps out of the
// challenge member and AgentTab's state: its text, its URL's path and
// query, the widget's sitekey and its response token.
const (
	canaryText    = "canary-text-3a9f"
	canaryPath    = "canary-path-7c1d"
	canaryQuery   = "canary-query-5e2b"
	canarySitekey = "canary-sitekey-81f0"
	canaryToken   = "canary-token-d00d"
)

var challengeCanaries = []string{canaryText, canaryPath, canaryQuery, canarySitekey, canaryToken}

// The widget pages imitate the catalog's markers
// (extension/src/shared/challenge-catalog.ts) as the vendors' embed code
// writes them: the container class, the vendor's frame host, the response
// field. A click anywhere in the container reports to the server; page
// buttons outside it fill the response field (as the vendor's script does
// when a person solves it) and remove the widget after a moment.
const widgetTail = `
<button onclick="hit('ordinary')">Ordinary</button>
<button onclick="document.getElementsByName('%[1]s')[0].value = '` + canaryToken + `'">Solve</button>
<button onclick="setTimeout(() => { document.getElementById('widget').remove(); hit('removed'); }, 1000)">Remove later</button>
<script>
document.getElementById('widget').addEventListener('click', () => hit('container'));
function hit(k) {
  const x = new XMLHttpRequest();
  x.open('POST', '/hit?k=' + k, false);
  x.send();
}
</script>`

const recaptchaPage = `<!doctype html><title>Sign up</title>
<h1>` + canaryText + `</h1>
<div class="g-recaptcha" id="widget" data-sitekey="` + canarySitekey + `">
  <p>Robot check here</p>
  <span role="checkbox" aria-checked="false" aria-label="Not a robot" tabindex="0">box</span>
  <iframe title="reCAPTCHA" width="304" height="78" src="https://www.google.com/recaptcha/api2/anchor?ar=1&amp;k=` + canarySitekey + `&amp;size=normal"></iframe>
  <textarea name="g-recaptcha-response" style="display: none;"></textarea>
</div>`

const turnstilePage = `<!doctype html><title>Log in</title>
<h1>` + canaryText + `</h1>
<div class="cf-turnstile" id="widget" data-sitekey="` + canarySitekey + `">
  <p>Robot check here</p>
  <iframe title="Widget containing a Cloudflare security challenge" src="https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/` + canarySitekey + `/light/normal"></iframe>
  <input type="hidden" name="cf-turnstile-response">
</div>`

// cloudflarePage is Cloudflare's "Just a moment..." interstitial, as
// e2e/pageagent/testdata/challenge/cloudflare.html.
const cloudflarePage = `<!doctype html><title>Just a moment...</title>
<h1>` + canaryText + `</h1>
<h2 id="challenge-running">Checking if the site connection is secure</h2>
<div id="challenge-stage"><button type="button">Verify you are human</button></div>
<form id="challenge-form" action="/cf?__cf_chl_f_tk=` + canaryQuery + `" method="POST"><input type="hidden" name="md" value="` + canarySitekey + `"></form>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=` + canaryQuery + `"></script>`

// lookalikePage uses the words and near-miss markers of challenges, and
// Cloudflare's bot-detection script of ordinary pages: no challenge.
const lookalikePage = `<!doctype html><title>Checking</title>
<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>
<h1>Checking if the site connection is secure. I'm not a robot.</h1>
<div class="g-recaptcha-like">Verify you are human</div>
<iframe title="Maps" src="https://www.google.com/maps/embed?pb=1"></iframe>
<form id="challenge-formular" action="/login"><button type="button" onclick="hit('ordinary')">Verify</button></form>
<script>function hit(k) { const x = new XMLHttpRequest(); x.open('POST', '/hit?k=' + k, false); x.send(); }</script>`

// challengeServer serves the pages under a path and query holding the
// canaries, and counts the pages' reports.
type challengeServer struct {
	mu   sync.Mutex
	hits map[string]int
}

func (c *challengeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	pages := map[string]string{
		"/" + canaryPath + "/recaptcha": fmt.Sprintf(recaptchaPage+widgetTail, "g-recaptcha-response"),
		"/" + canaryPath + "/turnstile": fmt.Sprintf(turnstilePage+widgetTail, "cf-turnstile-response"),
		"/" + canaryPath + "/cf":        cloudflarePage,
		"/" + canaryPath + "/lookalike": lookalikePage,
		"/plain":                        page("Plain"),
	}
	if body, found := pages[r.URL.Path]; found {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, body)
		return
	}
	switch {
	case r.URL.Path == "/hit":
		c.mu.Lock()
		c.hits[r.URL.Query().Get("k")]++
		c.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(r.URL.Path, "/cdn-cgi/"):
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, "// nothing")
	default:
		http.NotFound(w, r)
	}
}

// waitHit waits until the page reported k n times.
func (c *challengeServer) waitHit(t testing.TB, k string, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c.mu.Lock()
		got := c.hits[k]
		c.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("the page did not report %s %d times", k, n)
}

func (c *challengeServer) want(t testing.TB, when string, want map[string]int) {
	t.Helper()
	c.mu.Lock()
	got := maps.Clone(c.hits)
	c.mu.Unlock()
	for k, n := range want {
		if got[k] != n {
			t.Fatalf("%s: the page counted %v, want %s=%d", when, got, k, n)
		}
	}
}

// challengeRun drives one MCP session and keeps every result, for the
// canary check at the end.
type challengeRun struct {
	t       *testing.T
	s       *mcp.ClientSession
	base    string
	results []map[string]any
}

func (r *challengeRun) keep(res map[string]any) map[string]any {
	r.results = append(r.results, res)
	return res
}

func (r *challengeRun) open(path string) string {
	return handleOf(r.t, r.keep(ok(r.t, r.s, protocol.MethodOpen, map[string]any{"url": r.base + path})))
}

func (r *challengeRun) snap(tab string) (string, int64, map[string]any) {
	text, rev, res := snap(r.t, r.s, tab, nil)
	r.keep(res)
	return text, rev, res
}

func (r *challengeRun) act(tab string, rev int64, steps ...map[string]any) map[string]any {
	return r.keep(act(r.t, r.s, tab, rev, steps...))
}

func (r *challengeRun) wait(args map[string]any) map[string]any {
	return r.keep(ok(r.t, r.s, protocol.MethodWait, args))
}

// challengeFields are spec 000's fields of the member, resolved_by aside.
var challengeFields = []string{"challenge_id", "vendor", "product", "kind", "interaction", "state", "confidence", "origin", "elapsed_ms", "token_present"}

// member checks res's challenge member: exactly spec 000's fields, the
// catalog ids and state wanted (and resolved_by), a bare origin. It
// answers the member's challenge_id.
func (r *challengeRun) member(when string, res map[string]any, vendor, product, state, resolvedBy string) string {
	r.t.Helper()
	c, _ := res["challenge"].(map[string]any)
	if c == nil {
		r.t.Fatalf("%s: no challenge member: %v", when, res)
	}
	want := slices.Clone(challengeFields)
	if resolvedBy != "" {
		want = append(want, "resolved_by")
	}
	slices.Sort(want)
	if got := slices.Sorted(maps.Keys(c)); !slices.Equal(got, want) {
		r.t.Fatalf("%s: the member's fields %v, want exactly %v", when, got, want)
	}
	if c["vendor"] != vendor || c["product"] != product || c["state"] != state || (resolvedBy != "" && c["resolved_by"] != resolvedBy) {
		r.t.Fatalf("%s: member %v, want %s/%s %s %s", when, c, vendor, product, state, resolvedBy)
	}
	if c["origin"] != r.base {
		r.t.Fatalf("%s: origin %v, want the bare origin %s", when, c["origin"], r.base)
	}
	if c["token_present"] != (state == string(protocol.ChallengeSolved)) && state != string(protocol.ChallengeResolved) {
		r.t.Fatalf("%s: token_present %v with state %s", when, c["token_present"], state)
	}
	if ms, _ := c["elapsed_ms"].(float64); ms < 0 {
		r.t.Fatalf("%s: elapsed_ms %v", when, c["elapsed_ms"])
	}
	id, _ := c["challenge_id"].(string)
	return id
}

func (r *challengeRun) none(when string, res map[string]any) {
	r.t.Helper()
	if c, has := res["challenge"]; has {
		r.t.Fatalf("%s: a challenge member %v, want none", when, c)
	}
}

// withoutPageOwned drops what legitimately shows the page to the agent: a
// snapshot's text (the page's own text) and the URLs of the tab (the agent
// sees its URLs whole, issue 9). Everything else of a result, the
// challenge member first, must hold no canary.
func withoutPageOwned(v any, top bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "url" || (top && k == "text") {
				continue
			}
			out[k] = withoutPageOwned(e, false)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutPageOwned(e, false)
		}
		return out
	}
	return v
}

// Bot-challenge detection through MCP in real Chromium (spec 000's
// challenge paragraphs, issue 12): pages that imitate a reCAPTCHA v2
// checkbox, a Turnstile widget and Cloudflare's managed-challenge
// interstitial get a challenge member of exactly spec 000's fields on
// snapshot, act and wait results, with one id while they stay; input to a
// widget is refused challenge_present, not_started, and the page saw
// nothing, while an ordinary button beside it works; the page filling the
// response field turns it solved; each way it goes is reported once
// (wait, navigation, handoff, observed); a look-alike page gets none; no
// canary of the page's text, URL path and query, sitekey or token is in
// any result's member or other fields, nor in the audit (which keeps the
// fixed summary), the host log or the database.
func TestChallengeDetectionThroughMCP(t *testing.T) {
	e := harness.Start(t)
	fx := &challengeServer{hits: map[string]int{}}
	base := e.Serve(fx)
	r := &challengeRun{t: t, s: e.MCP(t), base: base}
	q := "?" + canaryQuery + "=" + canaryQuery

	// (1, 2, 3, 4 wait) The reCAPTCHA checkbox.
	tab := r.open("/" + canaryPath + "/recaptcha" + q)
	text, rev, res := r.snap(tab)
	id := r.member("snapshot of the reCAPTCHA page", res, "google", "recaptcha_v2", "present", "")
	if res["challenge"].(map[string]any)["kind"] != "widget" || res["challenge"].(map[string]any)["interaction"] != "checkbox" {
		t.Fatalf("reCAPTCHA v2: %v, want a checkbox widget", res["challenge"])
	}
	box, frame := refOf(t, text, "checkbox", "Not a robot"), refOf(t, text, "iframe", "reCAPTCHA")
	for _, ref := range []string{box, frame} {
		got := actRefused(t, r.s, tab, rev, protocol.CodeChallengePresent, 0, step("click", "ref", ref))
		if r.member("the refused act", r.keep(got), "google", "recaptcha_v2", "present", "") != id {
			t.Fatalf("the refused act's member: %v, want id %s", got["challenge"], id)
		}
	}
	res = r.wait(map[string]any{"tab": tab, "until": "text", "text": "Robot check here"})
	if got := r.member("a wait while it stays", res, "google", "recaptcha_v2", "present", ""); got != id {
		t.Fatalf("the challenge id changed while it stayed: %s, then %s", id, got)
	}
	fx.want(t, "clicks on the widget", map[string]int{"container": 0})
	res = r.act(tab, rev, step("click", "ref", refOf(t, text, "button", "Ordinary")))
	fx.want(t, "a click on an ordinary button", map[string]int{"container": 0, "ordinary": 1})
	if got := r.member("act beside the widget", res, "google", "recaptcha_v2", "present", ""); got != id {
		t.Fatalf("the challenge id changed while it stayed: %s, then %s", id, got)
	}
	res = r.act(tab, rev, step("click", "ref", refOf(t, text, "button", "Solve")))
	if got := r.member("after the page filled the response", res, "google", "recaptcha_v2", "solved", ""); got != id || res["challenge"].(map[string]any)["token_present"] != true {
		t.Fatalf("solved: %v, want token_present with id %s", res["challenge"], id)
	}
	res = r.act(tab, rev, step("click", "ref", refOf(t, text, "button", "Remove later")))
	r.member("act before it goes", res, "google", "recaptcha_v2", "solved", "")
	res = r.wait(map[string]any{"tab": tab, "until": "text", "text": "Robot check here", "gone": true})
	if res["satisfied"] != true || r.member("the wait that saw it go", res, "google", "recaptcha_v2", "resolved", "wait") != id {
		t.Fatalf("wait: %v", res)
	}
	_, _, res = r.snap(tab)
	r.none("the snapshot after it was reported resolved", res)

	// (1, 4 navigation) Cloudflare's interstitial in another tab: every
	// element is part of it.
	cf := r.open("/" + canaryPath + "/cf" + q)
	text, rev, res = r.snap(cf)
	id = r.member("snapshot of the interstitial", res, "cloudflare", "managed_challenge", "present", "")
	if c := res["challenge"].(map[string]any); c["kind"] != "interstitial" || c["confidence"] != "high" {
		t.Fatalf("the interstitial: %v", c)
	}
	r.keep(actRefused(t, r.s, cf, rev, protocol.CodeChallengePresent, 0, step("click", "ref", refOf(t, text, "button", "Verify you are human"))))
	res = r.act(cf, rev, step("navigate", "url", base+"/plain"))
	if r.member("the act that navigated away", res, "cloudflare", "managed_challenge", "resolved", "navigation") != id {
		t.Fatalf("navigation: the id changed: %v", res["challenge"])
	}
	_, _, res = r.snap(cf)
	r.none("the snapshot after the navigation was reported", res)

	// (4 handoff) A Turnstile widget goes while its tab has an open notice.
	ts := r.open("/" + canaryPath + "/turnstile" + q)
	text, rev, res = r.snap(ts)
	id = r.member("snapshot of the Turnstile page", res, "cloudflare", "turnstile", "present", "")
	notice, _ := noticeOf(t, r.keep(handoff(t, r.s, map[string]any{"action": "request", "tab": ts, "reason": "captcha"})))
	res = r.act(ts, rev, step("click", "ref", refOf(t, text, "button", "Remove later")))
	r.member("act while the notice is open", res, "cloudflare", "turnstile", "present", "")
	fx.waitHit(t, "removed", 2)
	_, _, res = r.snap(ts)
	if r.member("the snapshot after it went during the handoff", res, "cloudflare", "turnstile", "resolved", "handoff") != id {
		t.Fatalf("handoff: the id changed: %v", res["challenge"])
	}
	_, _, res = r.snap(ts)
	r.none("the snapshot after the handoff was reported", res)
	r.keep(handoff(t, r.s, map[string]any{"action": "resolve", "tab": ts, "notice_id": notice}))

	// (4 observed) The same widget again, gone with no wait and no notice.
	obs := r.open("/" + canaryPath + "/turnstile" + q)
	text, rev, res = r.snap(obs)
	id = r.member("snapshot of the second Turnstile page", res, "cloudflare", "turnstile", "present", "")
	r.act(obs, rev, step("click", "ref", refOf(t, text, "button", "Remove later")))
	fx.waitHit(t, "removed", 3)
	_, _, res = r.snap(obs)
	if r.member("the later snapshot", res, "cloudflare", "turnstile", "resolved", "observed") != id {
		t.Fatalf("observed: the id changed: %v", res["challenge"])
	}
	_, _, res = r.snap(obs)
	r.none("the snapshot after it was observed gone", res)

	// (5) A look-alike page.
	look := r.open("/" + canaryPath + "/lookalike" + q)
	text, rev, res = r.snap(look)
	r.none("snapshot of the look-alike page", res)
	res = r.act(look, rev, step("click", "ref", refOf(t, text, "button", "Verify")))
	r.none("act on the look-alike page", res)
	fx.want(t, "a click on the look-alike page", map[string]int{"ordinary": 2, "container": 0})

	for i, res := range r.results {
		whole, _ := json.Marshal(res)
		if strings.Contains(string(whole), canaryToken) {
			t.Errorf("result %d holds the response token: %s", i, whole)
		}
		rest, _ := json.Marshal(withoutPageOwned(res, true))
		for _, c := range challengeCanaries {
			if strings.Contains(string(rest), c) {
				t.Errorf("result %d holds %q beyond its page text and URL: %s", i, c, rest)
			}
		}
	}
	auditHoldsChallenges(t, e, base)
	noSecretInState(t, e, "", challengeCanaries...)
}

// auditHoldsChallenges checks audit.jsonl keeps the fixed challenge
// summary (spec 000 "Local audit data"): its fields only, the origin bare.
func auditHoldsChallenges(t *testing.T, e *harness.Env, base string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.StateDir, "audit.jsonl"))
	if err != nil {
		t.Fatalf("reading audit.jsonl: %v", err)
	}
	want := []string{"challenge_id", "confidence", "elapsed_ms", "interaction", "kind", "origin", "product", "state", "vendor"}
	seen := map[string]bool{}
	for line := range strings.Lines(string(data)) {
		var rec struct {
			Challenge map[string]any `json:"challenge"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Challenge == nil {
			continue
		}
		c := rec.Challenge
		keys := slices.Sorted(maps.Keys(c))
		if by, has := c["resolved_by"]; has {
			keys = slices.DeleteFunc(keys, func(k string) bool { return k == "resolved_by" })
			seen[fmt.Sprint(by)] = true
		}
		if !slices.Equal(keys, want) || c["origin"] != base {
			t.Errorf("an audit challenge summary %v, want the fields %v (+resolved_by) and origin %s", c, want, base)
		}
		seen[fmt.Sprint(c["product"])] = true
	}
	for _, k := range []string{"recaptcha_v2", "managed_challenge", "turnstile", "wait", "navigation", "handoff", "observed"} {
		if !seen[k] {
			t.Errorf("audit.jsonl has no challenge summary with %s", k)
		}
	}
}
