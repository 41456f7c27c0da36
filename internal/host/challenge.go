package host

import (
	"net/url"
	"regexp"
	"slices"

	"github.com/agenttab/agenttab/protocol"
)

// The challenge member the extension puts on snapshot, act, wait and
// commit answers (protocol/challenge.go) is passed on to the agent and
// summarised into the audit, so the host checks that it holds only what
// spec 000 allows: catalog ids, enums from their protocol lists, a bare
// origin. A member that does not check is dropped and logged (by field,
// never by value: a bad value may be page text), not passed on.

// catalogID is the form of the catalog's vendor and product ids
// (extension/src/shared/challenge-catalog.ts).
var catalogID = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

// challengeID is the extension's random challenge id.
var challengeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkedChallenge returns c when it checks, nil (logged) otherwise.
func (h *Host) checkedChallenge(c *protocol.Challenge) *protocol.Challenge {
	if c == nil {
		return nil
	}
	if bad := challengeProblem(*c); bad != "" {
		h.log.Printf("dropped the extension's challenge member: bad %s", bad)
		return nil
	}
	return c
}

// challengeProblem names the first field of c that does not check.
func challengeProblem(c protocol.Challenge) string {
	switch {
	case !challengeID.MatchString(c.ChallengeID):
		return "challenge_id"
	case !catalogID.MatchString(c.Vendor):
		return "vendor"
	case !catalogID.MatchString(c.Product):
		return "product"
	case !slices.Contains(protocol.ChallengeKinds, c.Kind):
		return "kind"
	case !slices.Contains(protocol.ChallengeInteractions, c.Interaction):
		return "interaction"
	case !slices.Contains(protocol.ChallengeStates, c.State):
		return "state"
	case !slices.Contains(protocol.ChallengeConfidences, c.Confidence):
		return "confidence"
	case (c.State == protocol.ChallengeResolved) != (c.ResolvedBy != ""),
		c.ResolvedBy != "" && !slices.Contains(protocol.ChallengeResolvedBys, c.ResolvedBy):
		return "resolved_by"
	case !bareOrigin(c.Origin):
		return "origin"
	case c.ElapsedMs < 0:
		return "elapsed_ms"
	}
	return ""
}

// bareOrigin says whether s is scheme://host[:port] and nothing more: no
// user info, path, query or fragment (spec 000: no URL path or query).
func bareOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != "" && u.User == nil && u.Opaque == "" &&
		u.Path == "" && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" && u.Scheme+"://"+u.Host == s
}
