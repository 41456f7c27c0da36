package protocol

// Pause: a global barrier, not a toggle. Source of truth: spec 000 ("Pause
// agents closes admission, waits for already-dispatched work to settle,
// rejects queued work as not started, and persists the paused state
// before reporting it. Resume reconciles ownership first"), spec 001 and
// DESIGN.md "Pause" (global, persisted by the extension and the host; if
// they disagree at start, the product is paused until the user resumes).

// LifecyclePaused: the user paused AgentTab; no browser work is admitted.
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

// Host→extension pause methods; both pass the global barrier.
const (
	NativePause   = "pause"
	NativeUnpause = "unpause"
)

// ExtPauseResult is the extension's paused state after a pause or unpause.
type ExtPauseResult struct {
	Paused bool `json:"paused"`
}

// Extension→host events from the popup's Pause and Resume buttons. The
// extension has already stopped admitting work when it sends
// EventPauseRequested; the host then pauses too.
const (
	EventPauseRequested  = "pause_requested"
	EventResumeRequested = "resume_requested"
)
