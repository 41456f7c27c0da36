package protocol

// Bot-challenge detection. Source of truth: spec 000 (the challenge
// paragraphs and the audit's fixed challenge summary) and issue 12. The
// catalog of vendors and products ships with the extension
// (extension/src/shared/challenge-catalog.ts) and is reviewed like code;
// nothing is fetched at run time. A challenge event holds catalog ids,
// enums, integers, a boolean and the page's origin: no page text, no URL
// path or query, no sitekey, never the token.

// ChallengeKind: a whole interstitial page, or a widget embedded in one.
type ChallengeKind string

const (
	ChallengeInterstitial ChallengeKind = "interstitial"
	ChallengeWidget       ChallengeKind = "widget"
)

// ChallengeKinds lists every ChallengeKind.
var ChallengeKinds = []ChallengeKind{ChallengeInterstitial, ChallengeWidget}

// ChallengeInteraction is what the challenge asks of a person.
type ChallengeInteraction string

const (
	// InteractionNone: it runs by itself (invisible or managed).
	InteractionNone     ChallengeInteraction = "none"
	InteractionCheckbox ChallengeInteraction = "checkbox"
	// InteractionPuzzle: images, audio, a slider or a game.
	InteractionPuzzle  ChallengeInteraction = "puzzle"
	InteractionUnknown ChallengeInteraction = "unknown"
)

// ChallengeInteractions lists every ChallengeInteraction.
var ChallengeInteractions = []ChallengeInteraction{InteractionNone, InteractionCheckbox, InteractionPuzzle, InteractionUnknown}

// ChallengeState is what was last seen of it.
type ChallengeState string

const (
	// ChallengePresent: shown, no response token yet.
	ChallengePresent ChallengeState = "present"
	// ChallengeSolved: still shown, and its response field holds a token.
	ChallengeSolved ChallengeState = "solved"
	// ChallengeResolved: gone (ResolvedBy says how it went).
	ChallengeResolved ChallengeState = "resolved"
)

// ChallengeStates lists every ChallengeState.
var ChallengeStates = []ChallengeState{ChallengePresent, ChallengeSolved, ChallengeResolved}

// ChallengeConfidence: high when the vendor's own frame or script host and
// its container marker are both there, medium for one strong marker, low
// for weaker evidence.
type ChallengeConfidence string

const (
	ConfidenceHigh   ChallengeConfidence = "high"
	ConfidenceMedium ChallengeConfidence = "medium"
	ConfidenceLow    ChallengeConfidence = "low"
)

// ChallengeConfidences lists every ChallengeConfidence.
var ChallengeConfidences = []ChallengeConfidence{ConfidenceHigh, ConfidenceMedium, ConfidenceLow}

// ChallengeResolvedBy says how a challenge went away (spec 000's four).
type ChallengeResolvedBy string

const (
	// ResolvedByWait: it went while a browser_wait (or wait step) watched.
	ResolvedByWait ChallengeResolvedBy = "wait"
	// ResolvedByHandoff: it went while the tab had an open notice.
	ResolvedByHandoff ChallengeResolvedBy = "handoff"
	// ResolvedByNavigation: the tab's document changed.
	ResolvedByNavigation ChallengeResolvedBy = "navigation"
	// ResolvedByObserved: a later snapshot or act found it gone.
	ResolvedByObserved ChallengeResolvedBy = "observed"
)

// ChallengeResolvedBys lists every ChallengeResolvedBy.
var ChallengeResolvedBys = []ChallengeResolvedBy{ResolvedByWait, ResolvedByHandoff, ResolvedByNavigation, ResolvedByObserved}

// Challenge is the challenge member of snapshot, act, wait and commit
// results: exactly spec 000's fields.
type Challenge struct {
	// ChallengeID is random, made when the extension first saw it on the
	// tab, and kept while it stays.
	ChallengeID string `json:"challenge_id"`
	// Vendor and Product are catalog ids ([a-z0-9_]).
	Vendor      string               `json:"vendor"`
	Product     string               `json:"product"`
	Kind        ChallengeKind        `json:"kind"`
	Interaction ChallengeInteraction `json:"interaction"`
	State       ChallengeState       `json:"state"`
	Confidence  ChallengeConfidence  `json:"confidence"`
	ResolvedBy  ChallengeResolvedBy  `json:"resolved_by,omitempty"`
	// Origin is the page's origin as Chrome reports the tab's URL.
	Origin string `json:"origin"`
	// ElapsedMs is the time since the extension first saw it.
	ElapsedMs int64 `json:"elapsed_ms"`
	// TokenPresent is computed inside the page; the token is never read
	// out, copied or written.
	TokenPresent bool `json:"token_present"`
}

// CodeChallengePresent: the step's target is part of a recognised bot
// challenge (or the page is a challenge interstitial), so AgentTab does not
// give it input; nothing ran.
const CodeChallengePresent ErrorCode = "challenge_present"
