package audit

import (
	"encoding/json"
	"net"
	"net/url"
	"sort"
	"strings"
)

// urlKey is the argument key whose values are navigation targets in every
// Core RPC method (browser_open's url, and later steps' url).
const urlKey = "url"

// defaultPorts are dropped from origins, as the web's origin serialisation
// does, so https://a.com and https://a.com:443 count once.
var defaultPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}

// Origins returns the origins (scheme://host[:port]) of the URLs in raw: every
// string at any depth under a key named "url" that starts with a scheme. A
// URL without a host (about:blank, file:///…) or whose authority does not
// parse counts as its scheme alone ("file:"), so a refused local-file
// target is on the record without its path (issue 9). The result is
// deduplicated and sorted, never nil, and never holds user info, a path, a
// query or a fragment.
func Origins(raw json.RawMessage) []string {
	out := []string{}
	v, err := parse(raw)
	if err != nil {
		return out
	}
	set := map[string]bool{}
	collectOrigins(v, false, set)
	for o := range set {
		out = append(out, o)
	}
	sort.Strings(out)
	return out
}

func collectOrigins(v any, underURL bool, set map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			collectOrigins(e, underURL || k == urlKey, set)
		}
	case []any:
		for _, e := range v {
			collectOrigins(e, underURL, set)
		}
	case string:
		if !underURL {
			return
		}
		if o, ok := origin(v); ok {
			set[o] = true
		}
	}
}

// origin returns the origin of an absolute URL, or its scheme followed by
// ":" when it names no host. view-source: counts as the page it loads.
func origin(s string) (string, bool) {
	s = strings.TrimSpace(s)
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || !isScheme(scheme) {
		return "", false
	}
	scheme = strings.ToLower(scheme)
	if scheme == "view-source" {
		return origin(rest)
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return scheme + ":", true
	}
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && port != defaultPorts[scheme] {
		return scheme + "://" + net.JoinHostPort(host, port), true
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal keeps its brackets
	}
	return scheme + "://" + host, true
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, "+", "-" or ".").
func isScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsSchemeByte(s[i]) {
			return false
		}
	}
	return true
}
