package host

import (
	"fmt"

	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/protocol"
)

// checkTarget decides an explicit navigation target (browser_open, a
// navigate step) that checkURL passed, before anything is recorded or
// sent to the extension, and returns it as the extension is to load it.
// A local file is decided by local_files.allowed_roots alone and comes
// back as the canonical URL of what it names (localfiles.go); origin
// lists name http(s) origins, not folders. Anything else is refused when
// the managed origin policy does not admit it (spec 000: "a refused
// target fails origin_policy_denied before navigation").
func (h *Host) checkTarget(target string) (string, *protocol.Error) {
	if isFileURL(target) {
		return h.local.admit(target)
	}
	r := h.policy.Origins.Check(target)
	switch {
	case r == nil:
		return target, nil
	case r.Unverifiable:
		return "", protocol.Fail(protocol.CodeOriginPolicyUnverifiable,
			"the URL cannot be checked against the origin policy: "+r.Reason)
	default:
		return "", protocol.Fail(protocol.CodeOriginPolicyDenied, r.Reason)
	}
}

// checkActTargets checks every navigate step of a batch, so that a batch
// with one refused target never starts: the steps before it would
// otherwise run and leave the page half-way. Each target becomes the one
// checkTarget returns.
func (h *Host) checkActTargets(steps []protocol.Step) *protocol.Error {
	for i := range steps {
		if steps[i].Kind != protocol.StepNavigate {
			continue
		}
		target, perr := h.checkTarget(steps[i].URL)
		if perr != nil {
			perr.Message = fmt.Sprintf("step %d (navigate): %s", i, perr.Message)
			return perr
		}
		steps[i].URL = target
	}
	return nil
}

// welcomePolicy is the policy as the welcome carries it to the extension,
// which stops the navigations pages start and asks about their local
// files (lists never null: the extension decodes strictly).
func welcomePolicy(o policy.Origins, local *localFiles) protocol.NativeWelcome {
	entries := func(list []policy.Origin) []protocol.OriginEntry {
		out := make([]protocol.OriginEntry, 0, len(list))
		for _, e := range list {
			out = append(out, protocol.OriginEntry{Scheme: protocol.OriginScheme(e.Scheme), Host: e.Host, Subdomains: e.Subdomains, Port: e.Port})
		}
		return out
	}
	return protocol.NativeWelcome{
		Origins:    protocol.OriginPolicy{Allowed: entries(o.Allowed), Denied: entries(o.Denied)},
		LocalFiles: local.configured(),
	}
}
