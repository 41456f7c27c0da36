package audit

import (
	"encoding/json"

	"github.com/agenttab/agenttab/protocol"
)

// ChallengeSummary is spec 000's fixed challenge summary ("Local audit
// data"): catalog ids, enum values, the challenge id, the page's origin and
// the elapsed time. Nothing else of a challenge member is written (its
// token_present flag included), and nothing of the page.
type ChallengeSummary struct {
	Vendor      string                        `json:"vendor"`
	Product     string                        `json:"product"`
	Kind        protocol.ChallengeKind        `json:"kind"`
	Interaction protocol.ChallengeInteraction `json:"interaction"`
	State       protocol.ChallengeState       `json:"state"`
	Confidence  protocol.ChallengeConfidence  `json:"confidence"`
	ResolvedBy  protocol.ChallengeResolvedBy  `json:"resolved_by,omitempty"`
	ChallengeID string                        `json:"challenge_id"`
	Origin      string                        `json:"origin"`
	ElapsedMs   int64                         `json:"elapsed_ms"`
}

// Challenge returns the summary of a result's top-level challenge member
// (snapshot, act, wait and commit results carry one), nil when it has none.
// The host checked the member before it went into the result
// (internal/host/challenge.go), so its fields are ids and enums.
func Challenge(result json.RawMessage) *ChallengeSummary {
	var r struct {
		Challenge *protocol.Challenge `json:"challenge"`
	}
	if json.Unmarshal(result, &r) != nil || r.Challenge == nil {
		return nil
	}
	c := r.Challenge
	return &ChallengeSummary{
		Vendor: c.Vendor, Product: c.Product, Kind: c.Kind, Interaction: c.Interaction, State: c.State, Confidence: c.Confidence,
		ResolvedBy: c.ResolvedBy, ChallengeID: c.ChallengeID, Origin: c.Origin, ElapsedMs: c.ElapsedMs,
	}
}
