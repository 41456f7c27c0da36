package protocol

// The managed origin policy (policy.json origins.allowed / origins.denied).
// Source of truth: spec 000 ("Managed origin policy still validates HTTP
// and HTTPS tab-only pages and every explicit navigation target"; history
// movement "when constraints exist" is rejected on tab_only) and DESIGN.md
// "Origin policy" (denied wins; a non-empty allow list admits only its
// entries; navigations the page starts are stopped and reported; on full
// tabs a history destination is checked like a page-started navigation).
// The host checks explicit targets before anything runs; the extension,
// told the policy in the welcome, stops what the page starts.

// Origin-policy error codes; both come with outcome not_started unless a
// page-started navigation was stopped after its step's input went out.
const (
	// CodeOriginPolicyDenied: the target's origin is denied, or outside a
	// non-empty allow list.
	CodeOriginPolicyDenied ErrorCode = "origin_policy_denied"
	// CodeOriginPolicyUnverifiable: the destination cannot be checked
	// before Chrome goes there (history movement on a tab_only tab, a host
	// Chrome would rewrite).
	CodeOriginPolicyUnverifiable ErrorCode = "origin_policy_unverifiable"
)

// OriginScheme is a scheme an origin list can name: only web origins
// are checked (browser pages such as chrome:// cannot match a list).
type OriginScheme string

const (
	OriginHTTP  OriginScheme = "http"
	OriginHTTPS OriginScheme = "https"
)

// OriginSchemes lists every OriginScheme: what internal/policy accepts
// in policy.json and the extension's decoder of the welcome checks.
var OriginSchemes = []OriginScheme{OriginHTTP, OriginHTTPS}

// OriginEntry is one policy entry in canonical form (internal/policy
// parses and checks the file; the extension only matches).
type OriginEntry struct {
	Scheme OriginScheme `json:"scheme"`
	// Host is lowercase ASCII as Chrome writes it: a DNS name, a
	// dotted-quad IPv4 address or a bracketed IPv6 address.
	Host string `json:"host"`
	// Subdomains: the entry was "*.host", which covers host and every
	// subdomain of it.
	Subdomains bool `json:"subdomains"`
	// Port is 0 for every port.
	Port int `json:"port"`
}

// OriginPolicy is the policy as the extension receives it in the welcome.
// Both lists empty: no constraint.
type OriginPolicy struct {
	Allowed []OriginEntry `json:"allowed"`
	Denied  []OriginEntry `json:"denied"`
}

// OriginStop is a navigation the tab's page started toward an origin the
// policy refuses, which the origin guard stopped while no step was
// watching the tab (a timer, a late script). Steps report the stops they
// cause themselves; these come with the tab's next snapshot, act or wait
// result instead, so that every stop is reported once (DESIGN.md "Origin
// policy": stopped and reported).
type OriginStop struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
	// Late: AgentTab loaded the last admitted page again, because the
	// navigation committed before it could be stopped (no debugger on the
	// tab), or because nothing could hold it before its commit (a local
	// file without origin lists: protocol/localfiles.go).
	Late bool `json:"late,omitempty"`
}

// MaxOriginStops bounds the stops kept for one tab between results; older
// ones are dropped first.
const MaxOriginStops = 8
