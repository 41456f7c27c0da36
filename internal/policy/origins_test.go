package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOriginAccepts(t *testing.T) {
	tests := []struct {
		entry string
		want  Origin
	}{
		{"https://example.com", Origin{Scheme: "https", Host: "example.com"}},
		{"HTTP://Example.COM", Origin{Scheme: "http", Host: "example.com"}},
		{"https://example.com:8443", Origin{Scheme: "https", Host: "example.com", Port: 8443}},
		{"https://example.com:443", Origin{Scheme: "https", Host: "example.com", Port: 443}},
		{"https://*.example.com", Origin{Scheme: "https", Host: "example.com", Subdomains: true}},
		{"https://*.com", Origin{Scheme: "https", Host: "com", Subdomains: true}},
		{"http://localhost:3000", Origin{Scheme: "http", Host: "localhost", Port: 3000}},
		{"http://127.0.0.1", Origin{Scheme: "http", Host: "127.0.0.1"}},
		{"http://[::1]:8080", Origin{Scheme: "http", Host: "[::1]", Port: 8080}},
		{"http://[0:0::1]", Origin{Scheme: "http", Host: "[::1]"}},
		{"https://xn--bcher-kva.de", Origin{Scheme: "https", Host: "xn--bcher-kva.de"}},
		{"https://my_host.example", Origin{Scheme: "https", Host: "my_host.example"}},
		{"https://1.example", Origin{Scheme: "https", Host: "1.example"}},
	}
	for _, tt := range tests {
		got, err := ParseOrigin(tt.entry)
		if err != nil {
			t.Errorf("ParseOrigin(%q) error = %v", tt.entry, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseOrigin(%q) mismatch (-want +got):\n%s", tt.entry, diff)
		}
		if again, err := ParseOrigin(got.String()); err != nil || again != got {
			t.Errorf("ParseOrigin(%q) = %v, %v; want it to read its own String %q back", got.String(), again, err, got)
		}
	}
}

func TestParseOriginRefuses(t *testing.T) {
	tests := []struct {
		entry, problem string
	}{
		{"", "scheme://host"},
		{"example.com", "scheme://host"},
		{"ftp://example.com", `scheme "ftp" cannot match`},
		{"chrome://settings", `scheme "chrome" cannot match`},
		{"https://", "the host is missing"},
		{"https://example.com/", "no path"},
		{"https://example.com/app", "no path"},
		{"https://example.com?q", "no query"},
		{"https://example.com#x", "no fragment"},
		{"https://user@example.com", "no user name"},
		{`https://evil.com\@good.com`, "no backslash"},
		{"https://example.com:", `port "" must be`},
		{"https://example.com:0", `port "0" must be`},
		{"https://example.com:65536", `port "65536" must be`},
		{"https://example.com:080", `port "080" must be`},
		{"https://example.com:x", `port "x" must be`},
		{"https://*", "has the character '*'"},
		{"https://*.", "the host is missing"},
		{"https://a.*.example.com", "has the character '*'"},
		{"https://**.example.com", "has the character '*'"},
		{"https://example.com.", "empty label"},
		{"https://.example.com", "empty label"},
		{"https://exa mple.com", "has the character ' '"},
		{"https://bücher.de", "xn-- form"},
		{"http://0x7f.1", "reads as an IPv4 address"},
		{"http://2130706433", "reads as an IPv4 address"},
		{"http://127.1", "reads as an IPv4 address"},
		{"http://*.127.0.0.1", "not IP addresses"},
		{"http://*.[::1]", "must be a number"},
		{"http://[::1", "closing ]"},
		{"http://[::1]x", "only :port"},
		{"http://[example.com]", "is not an IPv6 address"},
		{"http://[1.2.3.4]", "is not an IPv6 address"},
		{"http://[::ffff:1.2.3.4]", "write the IPv4 address 1.2.3.4"},
		{"http://" + strings.Repeat("a.", 127) + "com", "longer than 253"},
	}
	for _, tt := range tests {
		o, err := ParseOrigin(tt.entry)
		if err == nil {
			t.Errorf("ParseOrigin(%q) = %+v, want an error with %q", tt.entry, o, tt.problem)
			continue
		}
		if !strings.Contains(err.Error(), tt.problem) {
			t.Errorf("ParseOrigin(%q) error = %q, want it to contain %q", tt.entry, err, tt.problem)
		}
	}
}

func origins(t *testing.T, allowed, denied []string) Origins {
	t.Helper()
	var o Origins
	for _, list := range []struct {
		in  []string
		out *[]Origin
	}{{allowed, &o.Allowed}, {denied, &o.Denied}} {
		for _, e := range list.in {
			p, err := ParseOrigin(e)
			if err != nil {
				t.Fatalf("ParseOrigin(%q): %v", e, err)
			}
			*list.out = append(*list.out, p)
		}
	}
	return o
}

// The verdicts: "" admitted, "denied", "unverifiable".
func TestCheck(t *testing.T) {
	allowOnly := []string{"https://*.example.com", "http://localhost:3000", "http://127.0.0.1", "http://[::1]"}
	denyOnly := []string{"https://evil.com", "https://*.bad.org", "http://localhost:8080"}
	tests := []struct {
		name            string
		allowed, denied []string
		target          string
		want            string
		reason          string // a substring of the reason
	}{
		{"no policy admits everything", nil, nil, "https://anything.test/", "", ""},
		{"no policy admits browser pages", nil, nil, "chrome://settings/", "", ""},

		{"allowed apex", allowOnly, nil, "https://example.com/a?b#c", "", ""},
		{"allowed subdomain", allowOnly, nil, "https://deep.www.example.com/", "", ""},
		{"allowed, any port", allowOnly, nil, "https://example.com:8443/", "", ""},
		{"scheme must match", allowOnly, nil, "http://example.com/", "denied", "http://example.com is not in origins.allowed"},
		{"suffix is not a subdomain", allowOnly, nil, "https://notexample.com/", "denied", "not in origins.allowed"},
		{"port must match", allowOnly, nil, "http://localhost:3001/", "denied", "http://localhost:3001 is not in origins.allowed"},
		{"port matches", allowOnly, nil, "http://localhost:3000/x", "", ""},
		{"entry without a port, default port", allowOnly, nil, "http://127.0.0.1/", "", ""},
		{"entry without a port, another port", allowOnly, nil, "http://127.0.0.1:9/", "", ""},
		{"exact host has no subdomains", allowOnly, nil, "http://a.localhost:3000/", "denied", "not in origins.allowed"},
		{"ipv6", allowOnly, nil, "http://[0::1]:5/", "", ""},
		{"uppercase host", allowOnly, nil, "https://WWW.Example.COM/", "", ""},
		{"trailing dot is the same host", allowOnly, nil, "https://www.example.com./", "", ""},
		{"user info does not change the host", allowOnly, nil, "https://evil.com@www.example.com/", "", ""},
		{"browser page cannot match an allow list", allowOnly, nil, "chrome://settings/", "denied", "a chrome: page cannot match origins.allowed"},
		{"about:blank cannot match an allow list", allowOnly, nil, "about:blank", "denied", "cannot match"},
		{"file cannot match an allow list", allowOnly, nil, "file:///etc/hosts", "denied", "cannot match"},
		{"view-source checks the page it loads", allowOnly, nil, "view-source:https://example.com/", "", ""},
		{"view-source of a refused page", allowOnly, nil, "view-source:https://other.test/", "denied", "https://other.test is not in origins.allowed"},

		{"denied host", nil, denyOnly, "https://evil.com/x", "denied", "https://evil.com is denied by the origins.denied entry https://evil.com"},
		{"denied host on another port", nil, denyOnly, "https://evil.com:444/", "denied", "denied by"},
		{"deny is per scheme", nil, denyOnly, "http://evil.com/", "", ""},
		{"denied wildcard apex", nil, denyOnly, "https://bad.org/", "denied", "entry https://*.bad.org"},
		{"denied wildcard subdomain", nil, denyOnly, "https://x.y.bad.org/", "denied", "entry https://*.bad.org"},
		{"denied exact host keeps subdomains", nil, denyOnly, "https://www.evil.com/", "", ""},
		{"denied port only", nil, denyOnly, "http://localhost:8080/", "denied", "http://localhost:8080 is denied"},
		{"other port admitted", nil, denyOnly, "http://localhost:8081/", "", ""},
		{"deny-only admits browser pages", nil, denyOnly, "chrome://settings/", "", ""},
		{"deny-only checks view-source", nil, denyOnly, "view-source:https://evil.com/", "denied", "denied by"},
		{"explicit default port", nil, []string{"https://evil.com:443"}, "https://evil.com/", "denied", "denied by"},
		{"explicit default port, written", nil, []string{"https://evil.com:443"}, "https://evil.com:443/", "denied", "denied by"},
		{"trailing dot does not escape a deny", nil, denyOnly, "https://evil.com./", "denied", "denied by"},

		{"denied wins over allowed", []string{"https://*.example.com"}, []string{"https://pay.example.com"}, "https://pay.example.com/", "denied", "denied by"},
		{"allowed beside the denied one", []string{"https://*.example.com"}, []string{"https://pay.example.com"}, "https://www.example.com/", "", ""},

		{"numeric host is unverifiable", nil, denyOnly, "http://0x7f.1/", "unverifiable", "reads as an IPv4"},
		{"non-ascii host is unverifiable", nil, denyOnly, "https://bücher.de/", "unverifiable", "xn-- form"},
		{"backslash is unverifiable", nil, denyOnly, `https://good.com\@evil.com/`, "unverifiable", "does not parse"},
		{"bad port is unverifiable", nil, denyOnly, "https://evil.com:99999/", "unverifiable", "is not a port"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := origins(t, tt.allowed, tt.denied).Check(tt.target)
			got := ""
			if r != nil {
				got = "denied"
				if r.Unverifiable {
					got = "unverifiable"
				}
			}
			if got != tt.want {
				t.Fatalf("Check(%q) = %q (%+v), want %q", tt.target, got, r, tt.want)
			}
			if r != nil && !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("Check(%q) reason = %q, want it to contain %q", tt.target, r.Reason, tt.reason)
			}
		})
	}
}

// FuzzParseOrigin checks that ParseOrigin never panics, that what it
// accepts is canonical (it reads its own String back unchanged), and that
// an accepted entry admits the URL made of it.
func FuzzParseOrigin(f *testing.F) {
	for _, seed := range []string{
		"https://example.com", "http://*.example.com:8080", "http://[::1]", "http://127.0.0.1:1",
		"https://", "https://*.", "http://[::ffff:1.2.3.4]", "http://0x7f.1", "HTTPS://A.B", "https://a:b:c",
		"https://bücher.de", "https://example.com/", "http://[::1]x", "https://_:65535",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		o, err := ParseOrigin(entry)
		if err != nil {
			return
		}
		again, err := ParseOrigin(o.String())
		if err != nil || again != o {
			t.Fatalf("ParseOrigin(%q) = %+v, whose String %q reads back as %+v, %v", entry, o, o.String(), again, err)
		}
		target := o.Scheme + "://" + o.Host
		if o.Port != 0 {
			target += ":" + strings.TrimPrefix(o.String()[strings.LastIndexByte(o.String(), ':'):], ":")
		}
		if r := (Origins{Allowed: []Origin{o}}).Check(target + "/"); r != nil {
			t.Fatalf("the entry %q does not admit %s/: %+v", o, target, r)
		}
		if r := (Origins{Denied: []Origin{o}}).Check(target + "/"); r == nil || r.Unverifiable {
			t.Fatalf("the entry %q does not deny %s/: %+v", o, target, r)
		}
	})
}
