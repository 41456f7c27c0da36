package onepassword

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// The origin rule (spec 000: "accepts an item only when a URL on that item
// matches the current host or a recognized authentication subdomain of the
// same registrable domain"). An item URL matches a tab when the scheme and
// the port are the same and either
//   - the hosts are the same, or
//   - the tab's host is one AuthLabels label directly on the item host's
//     registrable domain (publicsuffix.EffectiveTLDPlusOne): an item saved
//     for bank.com or www.bank.com fills login.bank.com, never
//     login.other.bank.com, evil-bank.com or bank.com.evil.com.
//
// Hosts are compared in their ASCII (punycode) form, normalised by IDNA's
// lookup profile, as Chrome reports them: an item saved with a Unicode host
// matches the tab Chrome shows for it, and a homograph (а, Cyrillic) is a
// different host. IP addresses and single-label hosts (localhost) have no
// registrable domain: only the same host matches. Titles, tags and fields
// never enter the rule.

// AuthLabels are the recognised authentication subdomains (ARCHITECTURE.md
// decision record "1Password broker"): the names sites give the host of
// their sign-in pages. Short on purpose: each label widens what an item
// fills.
var AuthLabels = []string{"login", "logon", "signin", "auth", "account", "accounts", "sso", "id", "secure"}

// Origin is a tab's origin, normalised.
type Origin struct {
	Scheme string // "http" or "https"
	Host   string // ASCII, lower case, no trailing dot
	Port   string // explicit or the scheme's default
}

// String is the origin as a browser writes it (the port only when it is
// not the scheme's default).
func (o Origin) String() string {
	if o.Port == defaultPort(o.Scheme) {
		return o.Scheme + "://" + hostPort(o.Host, "")
	}
	return o.Scheme + "://" + hostPort(o.Host, o.Port)
}

// ParseOrigin reads a tab's URL as Chrome reports it. Only http and https
// pages have logins the broker fills.
func ParseOrigin(raw string) (Origin, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return Origin{}, false
	}
	return originOf(u)
}

// itemOrigin reads an item's URL. 1Password keeps what the user typed: a
// URL without a scheme ("bank.com/login") is taken as https, as
// 1Password's own fill does; userinfo is refused (no site is saved as
// bank.com@evil.com on purpose).
func itemOrigin(href string) (Origin, bool) {
	href = strings.TrimSpace(href)
	if !strings.Contains(href, "://") {
		href = "https://" + href
	}
	u, err := url.Parse(href)
	if err != nil || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return Origin{}, false
	}
	return originOf(u)
}

func originOf(u *url.URL) (Origin, bool) {
	host, err := normalHost(u.Hostname())
	if err != nil || host == "" {
		return Origin{}, false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = defaultPort(scheme)
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return Origin{}, false
	} else {
		port = strconv.Itoa(n)
	}
	return Origin{Scheme: scheme, Host: host, Port: port}, true
}

func normalHost(h string) (string, error) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	return idna.Lookup.ToASCII(h)
}

func defaultPort(scheme string) string {
	if scheme == "http" {
		return "80"
	}
	return "443"
}

func hostPort(host, port string) string {
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

// Matches says whether one item URL matches the tab's origin.
func (o Origin) Matches(href string) bool {
	it, ok := itemOrigin(href)
	if !ok || it.Scheme != o.Scheme || it.Port != o.Port {
		return false
	}
	if it.Host == o.Host {
		return true
	}
	if net.ParseIP(it.Host) != nil || net.ParseIP(o.Host) != nil {
		return false
	}
	domain, err := publicsuffix.EffectiveTLDPlusOne(it.Host)
	if err != nil {
		return false
	}
	label, rest, ok := strings.Cut(o.Host, ".")
	if !ok || rest != domain {
		return false
	}
	for _, l := range AuthLabels {
		if label == l {
			return true
		}
	}
	return false
}

// MatchesAny says whether any of an item's URLs matches.
func (o Origin) MatchesAny(hrefs []string) bool {
	for _, h := range hrefs {
		if o.Matches(h) {
			return true
		}
	}
	return false
}

// Candidates are the logins with a URL that matches the origin, in the
// order op listed them.
func (o Origin) Candidates(logins []Login) []Login {
	var out []Login
	for _, l := range logins {
		if o.MatchesAny(l.URLs) {
			out = append(out, l)
		}
	}
	return out
}
