package protocol

// Adoption, the third ownership path. Source of truth: spec 001 ("The user
// permits browser_open with mode: "adopt_active" for the currently active
// tab"), issue 4, and DESIGN.md "Adoption request" (a badge on the
// extension icon and a pending entry in the popup with the task label, the
// tab's title and origin, Allow/Deny; nothing is focused or opened; the
// call waits up to its timeout with progress, then needs_user). An adopted
// tab joins the task group and is never closed by the task.

// OpenModeAdoptActive asks the user to let the task adopt the active tab.
const OpenModeAdoptActive OpenMode = "adopt_active"

// CodeNeedsUser: the user did not allow the request (denied it, or did not
// answer in time); nothing changed.
const CodeNeedsUser ErrorCode = "needs_user"

// Adoption timeouts (browser_open's timeout_ms with adopt_active).
const (
	DefaultAdoptTimeoutMs = 60_000
	MaxAdoptTimeoutMs     = 300_000
)

// NativeAdopt asks the extension to put an adoption request before the user.
const NativeAdopt = "adopt"

// ExtAdoptParams names the requesting task and how long to wait for the user.
type ExtAdoptParams struct {
	Task      TaskLook `json:"task"`
	TimeoutMs int      `json:"timeout_ms"`
}
