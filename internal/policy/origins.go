package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/agenttab/agenttab/protocol"
)

// Origin is one entry of origins.allowed or origins.denied. Source of
// truth: DESIGN.md "Origin policy": entries are scheme://host[:port], with
// "*." allowed as a leading host label.
//
// Meaning, chosen where DESIGN.md is silent and stated in the README:
//   - only http and https: spec 000 says browser-owned non-HTTP pages
//     "cannot match an origin allowlist";
//   - "*.example.com" covers example.com itself and every subdomain, as a
//     Chrome extension match pattern does (a deny of *.evil.com that let
//     evil.com through would surprise its writer);
//   - without a port the entry covers every port of the host, as Chrome's
//     own URLBlocklist/URLAllowlist filters do; with one, only that port
//     (443 for https://h:443, also when the URL leaves it implicit).
type Origin struct {
	Scheme string
	// Host is lowercase ASCII: a DNS name, a dotted-quad IPv4 address, or
	// an IPv6 address in brackets ("[::1]"), as Chrome writes hosts.
	Host       string
	Subdomains bool
	// Port is 0 for any port.
	Port int
}

// maxHostLen is DNS's limit on a name's length.
const maxHostLen = 253

// ParseOrigin reads one entry strictly. It refuses rather than guesses:
// paths, queries, user names, other schemes, wildcards anywhere but the
// leading label, and hosts Chrome would rewrite (non-ASCII, numeric forms
// of IPv4 other than four decimal numbers, a trailing dot) are errors that
// say what to write instead.
func ParseOrigin(entry string) (Origin, error) {
	scheme, rest, ok := strings.Cut(entry, "://")
	if !ok {
		return Origin{}, errors.New(`write it as scheme://host or scheme://host:port, e.g. "https://example.com"`)
	}
	scheme = strings.ToLower(scheme)
	if !slices.Contains(protocol.OriginSchemes, protocol.OriginScheme(scheme)) {
		return Origin{}, fmt.Errorf("scheme %q cannot match: only %s origins are checked (browser pages such as chrome:// cannot match an origin list)", scheme, schemeNames())
	}
	if i := strings.IndexAny(rest, "/?#@\\"); i >= 0 {
		return Origin{}, fmt.Errorf("an origin has no %s; write only scheme://host[:port]", map[byte]string{'/': "path", '?': "query", '#': "fragment", '@': "user name", '\\': "backslash"}[rest[i]])
	}
	o := Origin{Scheme: scheme}
	hostPart := rest
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return Origin{}, errors.New("an IPv6 address needs its closing ]")
		}
		hostPart, rest = rest[:end+1], rest[end+1:]
	} else if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		hostPart, rest = rest[:i], rest[i:]
	} else {
		rest = ""
	}
	if rest != "" {
		port, ok := strings.CutPrefix(rest, ":")
		if !ok {
			return Origin{}, errors.New("only :port may follow an IPv6 address")
		}
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n) {
			return Origin{}, fmt.Errorf("port %q must be a number from 1 to 65535", port)
		}
		o.Port = n
	}
	if name, ok := strings.CutPrefix(hostPart, "*."); ok {
		o.Subdomains, hostPart = true, name
	}
	host, err := canonicalHost(hostPart)
	if err != nil {
		return Origin{}, err
	}
	if o.Subdomains && (strings.HasPrefix(host, "[") || isIPv4(host)) {
		return Origin{}, errors.New(`"*." applies to host names, not IP addresses`)
	}
	o.Host = host
	return o, nil
}

// canonicalHost returns h as Chrome writes it, or why it cannot: Chrome
// rewrites hosts (IDNA, numeric IPv4 forms), and an entry must name the
// host Chrome will report, or a deny could be walked around.
func canonicalHost(h string) (string, error) {
	if h == "" {
		return "", errors.New("the host is missing")
	}
	if strings.HasPrefix(h, "[") {
		a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", fmt.Errorf("%q is not an IPv6 address", h)
		}
		if a.Is4In6() {
			return "", fmt.Errorf("write the IPv4 address %s instead of %s", a.Unmap(), h)
		}
		return "[" + a.String() + "]", nil
	}
	if len(h) > maxHostLen {
		return "", fmt.Errorf("the host is longer than %d characters", maxHostLen)
	}
	h = strings.ToLower(h)
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" {
			return "", fmt.Errorf("host %q has an empty label (a leading, trailing or double dot)", h)
		}
		for _, c := range l {
			if c > 0x7f {
				return "", fmt.Errorf("host %q is not ASCII; write its xn-- form, as Chrome shows it", h)
			}
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("host %q has the character %q, which host names do not have", h, c)
			}
		}
	}
	// WHATWG URL (which Chrome follows): a host whose last label is a
	// number is an IPv4 address in some notation; only the canonical one
	// is what Chrome reports.
	if numeric(labels[len(labels)-1]) && !isIPv4(h) {
		return "", fmt.Errorf("host %q reads as an IPv4 address; write it as four decimal numbers, as Chrome shows it", h)
	}
	return h, nil
}

// numeric reports whether a label is a number in WHATWG's IPv4 parser:
// decimal, or hexadecimal with 0x.
func numeric(label string) bool {
	digits := label
	if hex, ok := strings.CutPrefix(label, "0x"); ok {
		for _, c := range hex {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return digits != ""
}

// isIPv4 reports whether h is an IPv4 address in canonical dotted-quad form.
func isIPv4(h string) bool {
	a, err := netip.ParseAddr(h)
	return err == nil && a.Is4() && a.String() == h
}

// String is the entry in canonical form; ParseOrigin reads it back.
func (o Origin) String() string {
	s := o.Scheme + "://"
	if o.Subdomains {
		s += "*."
	}
	s += o.Host
	if o.Port != 0 {
		s += ":" + strconv.Itoa(o.Port)
	}
	return s
}

// MarshalText writes the canonical entry, so a Policy encodes as the file
// it was read from.
func (o Origin) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an entry with ParseOrigin.
func (o *Origin) UnmarshalText(b []byte) error {
	p, err := ParseOrigin(string(b))
	if err != nil {
		return err
	}
	*o = p
	return nil
}

// matches reports whether the entry covers a URL's scheme, canonical host
// and effective port.
func (o Origin) matches(scheme, host string, port int) bool {
	if o.Scheme != scheme || (o.Port != 0 && o.Port != port) {
		return false
	}
	return host == o.Host || (o.Subdomains && strings.HasSuffix(host, "."+o.Host))
}

// schemeNames is protocol.OriginSchemes for a message: "http and https".
func schemeNames() string {
	names := make([]string, len(protocol.OriginSchemes))
	for i, s := range protocol.OriginSchemes {
		names[i] = string(s)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
