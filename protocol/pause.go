package protocol

// Pause: a global barrier, not a toggle. Source of truth: spec 000 ("Pause
// agents closes admission, waits for already-dispatched work to settle,
// rejects queued work as not started, and persists the paused state
// before reporting it. Resume reconciles ownership first"), spec 001 and
// DESIGN.md "Pause" (global, persisted by the extension and the host; if
// they disagree at start, the product is paused until the user resumes).

// LifecyclePausing: the user asked for a Pause; admission is closed and
// the host waits for dispatched work to settle before it stores the Pause
// (spec 001: "Pause is a barrier, not an optimistic UI toggle").
const LifecyclePausing Lifecycle = "pausing"

// LifecyclePaused: the Pause is stored and in force; no browser work is
// admitted.
const LifecyclePaused Lifecycle = "paused"

// CodePaused refuses work while AgentTab is paused; nothing ran.
const CodePaused ErrorCode = "paused"

// Core methods for the human's controls (`agenttab pause` / `agenttab
// resume`). Neither creates a task.
const (
	MethodPause   = "pause"
	MethodUnpause = "unpause"
)

// PauseResult reports the state once it is in force (persisted by the host
// and, when it is connected, by the extension).
type PauseResult struct {
	Paused    bool      `json:"paused"`
	Lifecycle Lifecycle `json:"lifecycle"`
	// Revoked counts the tabs an unpause's reconciliation revoked (closed
	// or moved out of their group while paused).
	Revoked int `json:"revoked,omitempty"`
}

// Host→extension pause methods. NativePausing starts a Pause: the
// extension stops admitting work at once, ends the adoption requests
// waiting for the user (not dispatched work: they would hold the barrier
// up until their timeout) and shows pausing. It is served at once, outside
// the global barrier it begins. NativePause says the Pause is stored and
// in force (dispatched work has settled); it passes the global barrier,
// like NativeUnpause.
const (
	NativePausing = "pausing"
	NativePause   = "pause"
	NativeUnpause = "unpause"
)

// ExtPauseResult is the extension's paused state after a pause or unpause.
type ExtPauseResult struct {
	Paused bool `json:"paused"`
}

// Extension→host events from the popup's Pause and Resume buttons. The
// extension has already begun the Pause (as on NativePausing) when it
// sends EventPauseRequested; the host then pauses, and the popup shows
// pausing until the host's NativePause.
const (
	EventPauseRequested  = "pause_requested"
	EventResumeRequested = "resume_requested"
)

// PauseReason says who paused AgentTab, so that refusals can say what to do.
type PauseReason string

const (
	// PauseByUser: the popup's Pause or `agenttab pause`.
	PauseByUser PauseReason = "user"
	// PauseByDebuggerCancel: the user clicked Cancel on Chrome's "AgentTab
	// started debugging this browser" banner (chrome.debugger.onDetach
	// reason canceled_by_user). A person who clicks Cancel means stop, so
	// it is the user's Pause, persisted and undone only by Resume; AgentTab
	// never attaches again silently (issue 12).
	PauseByDebuggerCancel PauseReason = "debugger_canceled"
)

// PauseReasons lists every PauseReason.
var PauseReasons = []PauseReason{PauseByUser, PauseByDebuggerCancel}

// PauseRequestedParams are EventPauseRequested's params.
type PauseRequestedParams struct {
	Reason PauseReason `json:"reason"`
}
