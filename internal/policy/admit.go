package policy

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Origins is the managed origin policy (DESIGN.md "Origin policy"):
// denied wins; a non-empty allow list admits only its entries.
type Origins struct {
	Allowed []Origin `json:"allowed,omitempty"`
	Denied  []Origin `json:"denied,omitempty"`
}

// Constrained reports whether any origin is allowed or denied: only then
// does the policy check navigation, and (spec 000) history movement on
// tab_only tabs is refused.
func (o Origins) Constrained() bool {
	return len(o.Allowed) > 0 || len(o.Denied) > 0
}

// Refusal says why the policy does not admit a navigation target.
type Refusal struct {
	// Unverifiable: the target cannot be checked (a host Chrome would
	// rewrite); otherwise it is denied.
	Unverifiable bool
	Reason       string
}

// Check decides an explicit navigation target, an absolute URL. It
// returns nil when the policy admits it. Non-http(s) targets cannot match
// an allow list (spec 000), and no deny entry names them; view-source:
// loads the page it shows, so that page is what is checked.
//
// The extension makes the same decision on the URL as Chrome canonicalised
// it (extension/src/background/origins.ts); hosts Chrome would rewrite are
// unverifiable here rather than guessed.
func (o Origins) Check(target string) *Refusal {
	if !o.Constrained() {
		return nil
	}
	// url.Parse refuses what Chrome would read differently in the
	// authority (a backslash, which Chrome reads as a slash; control
	// characters, which Chrome drops), so the host below is Chrome's.
	u, err := url.Parse(target)
	if err != nil {
		return &Refusal{Unverifiable: true, Reason: fmt.Sprintf("%s does not parse as a URL", target)}
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "view-source" {
		return o.Check(u.Opaque)
	}
	if scheme != "http" && scheme != "https" {
		if len(o.Allowed) > 0 {
			return &Refusal{Reason: fmt.Sprintf("a %s: page cannot match origins.allowed, which names only http and https origins", scheme)}
		}
		return nil
	}
	host, err := canonicalHost(strings.TrimSuffix(bracket(u.Hostname()), "."))
	if err != nil {
		return &Refusal{Unverifiable: true, Reason: err.Error()}
	}
	port := defaultPort(scheme)
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return &Refusal{Unverifiable: true, Reason: fmt.Sprintf("port %q is not a port", p)}
		}
		port = n
	}
	origin := scheme + "://" + host
	if port != defaultPort(scheme) {
		origin += ":" + strconv.Itoa(port)
	}
	for _, d := range o.Denied {
		if d.matches(scheme, host, port) {
			return &Refusal{Reason: fmt.Sprintf("%s is denied by the origins.denied entry %s", origin, d)}
		}
	}
	if len(o.Allowed) == 0 {
		return nil
	}
	for _, a := range o.Allowed {
		if a.matches(scheme, host, port) {
			return nil
		}
	}
	return &Refusal{Reason: fmt.Sprintf("%s is not in origins.allowed", origin)}
}

// bracket puts an IPv6 address back in the brackets url.Hostname strips.
func bracket(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

func defaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}
