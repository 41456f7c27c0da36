package host

import (
	"fmt"

	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/protocol"
)

// checkTarget refuses an explicit navigation target (browser_open, a
// navigate step) that the managed origin policy does not admit, before
// anything is recorded or sent to the extension (spec 000: "a refused
// target fails origin_policy_denied before navigation").
func (h *Host) checkTarget(target string) *protocol.Error {
	r := h.policy.Origins.Check(target)
	switch {
	case r == nil:
		return nil
	case r.Unverifiable:
		return protocol.NewError(protocol.CodeOriginPolicyUnverifiable, protocol.OutcomeNotStarted,
			"the URL cannot be checked against the origin policy: "+r.Reason, protocol.RecoveryOriginPolicyUnverifiable)
	default:
		return protocol.NewError(protocol.CodeOriginPolicyDenied, protocol.OutcomeNotStarted, r.Reason, protocol.RecoveryOriginPolicyDenied)
	}
}

// checkActTargets checks every navigate step of a batch, so that a batch
// with one refused target never starts: the steps before it would
// otherwise run and leave the page half-way.
func (h *Host) checkActTargets(steps []protocol.Step) *protocol.Error {
	for i, s := range steps {
		if s.Kind != protocol.StepNavigate {
			continue
		}
		if perr := h.checkTarget(s.URL); perr != nil {
			perr.Message = fmt.Sprintf("step %d (navigate): %s", i, perr.Message)
			return perr
		}
	}
	return nil
}

// welcomeOrigins is the policy as the welcome carries it to the extension,
// which stops the navigations pages start (lists never null: the
// extension decodes strictly).
func welcomeOrigins(o policy.Origins) protocol.OriginPolicy {
	entries := func(list []policy.Origin) []protocol.OriginEntry {
		out := make([]protocol.OriginEntry, 0, len(list))
		for _, e := range list {
			out = append(out, protocol.OriginEntry{Scheme: e.Scheme, Host: e.Host, Subdomains: e.Subdomains, Port: e.Port})
		}
		return out
	}
	return protocol.OriginPolicy{Allowed: entries(o.Allowed), Denied: entries(o.Denied)}
}
