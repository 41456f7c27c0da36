package host

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

// startRigWithPolicy starts a host whose STATE/policy.json holds policy.
func startRigWithPolicy(t *testing.T, policy string) *rig {
	t.Helper()
	dir := tempStateDir(t)
	if err := os.WriteFile(dir.Policy(), []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	return startRig(t, withDir(dir))
}

const testOrigins = `{"origins":{"allowed":["https://*.allowed.test","http://localhost:8080"],"denied":["https://pay.allowed.test"]}}`

func TestWelcomeCarriesTheOriginPolicy(t *testing.T) {
	r := startRigWithPolicy(t, testOrigins)
	r.ext.mu.Lock()
	got := r.ext.welcome.Origins
	r.ext.mu.Unlock()
	want := protocol.OriginPolicy{
		Allowed: []protocol.OriginEntry{{Scheme: "https", Host: "allowed.test", Subdomains: true}, {Scheme: "http", Host: "localhost", Port: 8080}},
		Denied:  []protocol.OriginEntry{{Scheme: "https", Host: "pay.allowed.test"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("welcome origins (-want +got):\n%s", diff)
	}
}

// Without origin lists the welcome still carries two empty lists: the
// extension decodes it strictly.
func TestWelcomeWithoutOriginsHasEmptyLists(t *testing.T) {
	r := startRig(t)
	r.ext.mu.Lock()
	got := r.ext.welcome.Origins
	r.ext.mu.Unlock()
	if got.Allowed == nil || got.Denied == nil || len(got.Allowed)+len(got.Denied) != 0 {
		t.Errorf("welcome origins = %#v, want two empty lists", got)
	}
}

// A refused target reaches neither the extension nor the store: nothing
// is opened, no batch starts, and no idempotency key is spent.
func TestOriginPolicyRefusalsChangeNothing(t *testing.T) {
	r := startRigWithPolicy(t, testOrigins)
	c, tab := openOneAt(t, r, "https://www.allowed.test/")
	nav := func(url string) map[string]any { return map[string]any{"kind": "navigate", "url": url} }
	for _, tc := range []struct {
		name   string
		method string
		params map[string]any
		want   protocol.ErrorCode
	}{
		{"open a denied origin", protocol.MethodOpen, map[string]any{"url": "https://pay.allowed.test/checkout", "mode": "create", "idempotency_key": "0190b2a0-0000-7000-8000-0000000000d1"}, protocol.CodeOriginPolicyDenied},
		{"open outside the allow list", protocol.MethodOpen, map[string]any{"url": "https://elsewhere.test/", "mode": "create"}, protocol.CodeOriginPolicyDenied},
		{"open the wrong port", protocol.MethodOpen, map[string]any{"url": "http://localhost:8081/", "mode": "create"}, protocol.CodeOriginPolicyDenied},
		{"open a browser page under an allow list", protocol.MethodOpen, map[string]any{"url": "chrome://settings/", "mode": "create"}, protocol.CodeOriginPolicyDenied},
		{"open in a new window", protocol.MethodOpen, map[string]any{"url": "https://pay.allowed.test/", "mode": "create", "placement": "new_window"}, protocol.CodeOriginPolicyDenied},
		{"open a host Chrome would rewrite", protocol.MethodOpen, map[string]any{"url": "http://0x7f.1/", "mode": "create"}, protocol.CodeOriginPolicyUnverifiable},
		{"navigate to a denied origin", protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1, "actions": []any{nav("https://pay.allowed.test/")}}, protocol.CodeOriginPolicyDenied},
		{"a later navigate refuses the whole batch", protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1, "idempotency_key": "0190b2a0-0000-7000-8000-0000000000d2",
			"actions": []any{map[string]any{"kind": "click", "ref": "e1"}, nav("https://www.allowed.test/next"), nav("https://elsewhere.test/")}}, protocol.CodeOriginPolicyDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := callErr(t, c.Client, tc.method, tc.params)
			if e.Code != tc.want || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
				t.Fatalf("got %+v, want %s, not_started, with recovery", e, tc.want)
			}
		})
	}
	if n, m := count(r.ext.seen(), protocol.NativeOpen), count(r.ext.seen(), protocol.NativeAct); n != 1 || m != 0 {
		t.Fatalf("refused work reached the extension: %v", r.ext.seen())
	}
	// The refused calls spent no idempotency key: the same keys now run.
	rpc[protocol.OpenResult](t, c.Client, protocol.MethodOpen, map[string]any{"url": "https://shop.allowed.test/", "mode": "create", "idempotency_key": "0190b2a0-0000-7000-8000-0000000000d1"})
	rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1, "idempotency_key": "0190b2a0-0000-7000-8000-0000000000d2", "actions": []any{nav("http://localhost:8080/x")}})
	if n, m := count(r.ext.seen(), protocol.NativeOpen), count(r.ext.seen(), protocol.NativeAct); n != 2 || m != 1 {
		t.Fatalf("admitted work did not reach the extension: %v", r.ext.seen())
	}
}

// Without origin lists nothing is refused for its origin.
func TestNoOriginPolicyAdmitsEverything(t *testing.T) {
	r := startRig(t)
	c, tab := openOneAt(t, r, "chrome://settings/")
	rpc[protocol.ActResult](t, c.Client, protocol.MethodAct, map[string]any{"tab": tab, "expected_page_revision": 1,
		"actions": []any{map[string]any{"kind": "navigate", "url": "http://0x7f.1/"}}})
}
