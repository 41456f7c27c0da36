package protocol

// Outcome says how far a step got. Source of truth: DESIGN.md "Results,
// errors and outcomes" and spec 000.
type Outcome string

const (
	// OutcomeNotStarted: nothing reached Chrome.
	OutcomeNotStarted Outcome = "not_started"
	// OutcomeDispatched: Chrome acknowledged, the effect was not read back.
	OutcomeDispatched Outcome = "dispatched"
	// OutcomeConfirmed: the effect was read back.
	OutcomeConfirmed Outcome = "confirmed"
	// OutcomeStaged: a Commit record waits for review.
	OutcomeStaged Outcome = "staged"
	// OutcomeUnknown: something may have been sent and the answer is
	// missing; it is never sent again.
	OutcomeUnknown Outcome = "unknown"
	// OutcomeObserved: a read.
	OutcomeObserved Outcome = "observed"
)

// Lifecycle is the host's admission state. Browser work is admitted only in
// LifecycleReady (spec 001: "A host that has not completed its native
// handshake and reconciliation remains unavailable for browser work").
type Lifecycle string

const (
	LifecycleStarting    Lifecycle = "starting"
	LifecycleHandshaking Lifecycle = "handshaking"
	LifecycleReconciling Lifecycle = "reconciling"
	LifecycleReady       Lifecycle = "ready"
)

// Route is a tab's automation route (spec 000): "full" pages allow page
// work; "tab_only" pages (browser-owned surfaces) allow only tab-lifecycle
// operations.
type Route string

const (
	RouteFull    Route = "full"
	RouteTabOnly Route = "tab_only"
)

// Placement says where browser_open puts a created tab.
type Placement string

const (
	PlacementTab       Placement = "tab"
	PlacementNewWindow Placement = "new_window"
)

// Placements lists every Placement.
var Placements = []Placement{PlacementTab, PlacementNewWindow}

// OpenMode says how browser_open obtains a tab: "create", or
// "adopt_active" (adopt.go).
type OpenMode string

const (
	OpenModeCreate OpenMode = "create"
)

// OpenModes lists every OpenMode.
var OpenModes = []OpenMode{OpenModeCreate, OpenModeAdoptActive}

// RevokeReason says why ownership of a tab ended.
type RevokeReason string

const (
	RevokeClosed       RevokeReason = "closed"
	RevokeUngrouped    RevokeReason = "ungrouped"
	RevokeMovedOut     RevokeReason = "moved_out"
	RevokeInconsistent RevokeReason = "inconsistent"
)

// ErrorCode is a stable, machine-readable failure code. Agents branch on
// these; never rename one.
type ErrorCode string

const (
	// Request shape.
	CodeParseError     ErrorCode = "parse_error"
	CodeInvalidRequest ErrorCode = "invalid_request"
	CodeUnknownMethod  ErrorCode = "unknown_method"
	CodeInvalidParams  ErrorCode = "invalid_params"
	CodeInvalidURL     ErrorCode = "invalid_url"
	CodeMessageTooBig  ErrorCode = "message_too_large"

	// Admission and ownership.
	CodeHostUnavailable       ErrorCode = "host_unavailable"
	CodeNotOwned              ErrorCode = "not_owned"
	CodeNoTask                ErrorCode = "no_task"
	CodeNewWindowNotEligible  ErrorCode = "new_window_not_eligible"
	CodeGroupFailed           ErrorCode = "group_failed"
	CodeIdempotencyConflict   ErrorCode = "idempotency_key_conflict"
	CodeIdempotencyInProgress ErrorCode = "idempotency_key_in_progress"
	CodePeerRefused           ErrorCode = "peer_refused"
	// CodeCapabilityUnconfirmed: the connection was given a resume
	// capability it has not confirmed yet; nothing else is admitted.
	CodeCapabilityUnconfirmed ErrorCode = "capability_unconfirmed"

	// Browser.
	CodeChromeError      ErrorCode = "chrome_error"
	CodeExtensionTimeout ErrorCode = "extension_timeout"
	CodeExtensionGone    ErrorCode = "extension_disconnected"

	// Handshake.
	CodeVersionMismatch ErrorCode = "protocol_version_mismatch"
	CodeWrongExtension  ErrorCode = "wrong_extension"

	CodeInternal ErrorCode = "internal_error"
)

// Error is the one failure shape on every boundary: a Core RPC error's data,
// a native response's error, and the structured content of an MCP tool
// result with isError.
type Error struct {
	Code     ErrorCode `json:"code"`
	Message  string    `json:"message"`
	Recovery string    `json:"recovery"`
	Outcome  Outcome   `json:"outcome"`
	// Lifecycle is set when the host refused because it is not ready.
	Lifecycle Lifecycle `json:"lifecycle,omitempty"`
}

func (e *Error) Error() string {
	if e.Recovery == "" {
		return string(e.Code) + ": " + e.Message
	}
	return string(e.Code) + ": " + e.Message + " (" + e.Recovery + ")"
}

// Errorf-style constructor kept deliberately small: every failure names its
// code, what happened, what to do next and how far it got.
func NewError(code ErrorCode, outcome Outcome, message, recovery string) *Error {
	return &Error{Code: code, Message: message, Recovery: recovery, Outcome: outcome}
}
