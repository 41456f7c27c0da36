package protocol

// Commit review and YOLO mode. Source of truth: spec 000 (the paragraphs
// on Commit and YOLO mode), spec 001 (a batch stops at its first staged
// action; another agent cannot use that stage) and issue 12.
//
// The extension classifies the target of every Standard mutation before it
// executes it (a bundled, best-effort rule set: extension/src/shared/effects.ts).
// With YOLO mode on (the default) a recognised effect executes inline.
// With YOLO mode off the step is not executed: its receipt says staged and
// the extension reports an ExtStage; the host records a five-minute,
// one-use stage bound to the task, tab, page revision, event (the step),
// target fingerprint, effect and preview digest, and the batch stops.
// The human approves or denies it in the popup (NativeStageReview, which
// carries only the opaque review handle); approval only marks the stage,
// durably. A later browser_commit from the same task consumes it once.

// MethodCommit is browser_commit's Core method.
const MethodCommit = "browser_commit"

// NativeCommit executes an approved stage's step on its tab (host→extension).
const NativeCommit = "commit"

// Effect is a recognisable consequential effect of a control.
type Effect string

const (
	EffectSend       Effect = "send"
	EffectPublish    Effect = "publish"
	EffectPurchase   Effect = "purchase"
	EffectDelete     Effect = "delete"
	EffectUpload     Effect = "upload"
	EffectAuthorize  Effect = "authorization"
	EffectPermission Effect = "permission_grant"
	// EffectBookmarkRemove is browser_profile's bookmarks_remove (issue
	// 14), which always stages, YOLO mode or not (spec 000: "YOLO mode
	// never skips review for browser_profile bookmark removal"):
	// browser_profile stages it itself, whatever the switch says, since no
	// page step has this effect; turning YOLO mode on never discards it
	// (ARCHITECTURE.md "browser_profile").
	EffectBookmarkRemove Effect = "bookmark_remove"
)

// Effects lists every Effect, in the order agents and the docs see them.
var Effects = []Effect{EffectSend, EffectPublish, EffectPurchase, EffectDelete, EffectUpload, EffectAuthorize, EffectPermission, EffectBookmarkRemove}

// ReviewHandleBytes is how many random bytes a review handle has; the
// extension makes it (review/reviews.ts newReviewHandle) and the host
// accepts exactly that, in lower-case hex.
const ReviewHandleBytes = 32

// StageTTLMs is how long a stage lives (spec 000: five minutes), from the
// moment the host records it.
const StageTTLMs = 5 * 60 * 1000

// StageState is where a stage is in its life.
type StageState string

const (
	// StagePending waits for the human's review in the popup.
	StagePending StageState = "pending"
	// StageApproved: the human approved it; browser_commit may consume it.
	StageApproved StageState = "approved"
	// StageDenied: the human denied it.
	StageDenied StageState = "denied"
	// StageExpired: five minutes passed before it was committed.
	StageExpired StageState = "expired"
	// StageConsumed: a browser_commit took it (executed once, or refused
	// by the extension's recheck; either way it never runs again).
	StageConsumed StageState = "consumed"
	// StageDiscarded: the user turned YOLO mode on, or the task finished.
	StageDiscarded StageState = "discarded"
)

// StageStates lists every StageState.
var StageStates = []StageState{StagePending, StageApproved, StageDenied, StageExpired, StageConsumed, StageDiscarded}

// Commit error codes: each says why browser_commit did not run the stage
// (outcome not_started). Catalogue entries in errors.go.
const (
	// CodeStageNotFound: no stage of this task has that id (another
	// task's stage is not found either: a stage id grants nothing).
	CodeStageNotFound ErrorCode = "stage_not_found"
	// CodeStageNotApproved: the human has not approved it yet.
	CodeStageNotApproved ErrorCode = "stage_not_approved"
	CodeStageDenied      ErrorCode = "stage_denied"
	CodeStageExpired     ErrorCode = "stage_expired"
	// CodeStageConsumed: a browser_commit already took the stage.
	CodeStageConsumed ErrorCode = "stage_consumed"
	// CodeStageDiscarded: YOLO mode was turned on, which discards stages.
	CodeStageDiscarded ErrorCode = "stage_discarded"
	// CodeStageStale: the tab navigated (its page revision moved) since
	// the stage was made.
	CodeStageStale ErrorCode = "stage_stale"
	// CodeStageTargetChanged: the staged control is gone or no longer the
	// one staged (its fingerprint or effect differs), or what it would
	// send is no longer what the human approved (the preview differs).
	CodeStageTargetChanged ErrorCode = "stage_target_changed"
)

// StageInfo is what an agent learns of a stage: its opaque id, the step
// it holds, its effect and how long it lives. Never the preview.
type StageInfo struct {
	Stage       string `json:"stage"`
	Step        int    `json:"step"`
	Effect      Effect `json:"effect"`
	ExpiresInMs int64  `json:"expires_in_ms"`
}

// ExtStage is a staged step as the extension reports it on ExtActResult.
// The preview (the control's name, the origin, the form's visible labels
// and non-sensitive values) stays in extension storage for the popup; the
// host keeps only its digest.
type ExtStage struct {
	Step int `json:"step"`
	// ReviewHandle is the extension's random handle for the popup's review:
	// 32 random bytes in lower-case hex (64 characters; the host accepts
	// nothing else). The host stores its SHA-256 only.
	ReviewHandle string `json:"review_handle"`
	Effect       Effect `json:"effect"`
	// Fingerprint is the extension's hex HMAC-SHA-256, keyed by the review
	// handle, of the target's description (ref, tag, role, name, type, its
	// form's action, method and input types): keyed, as spec 000 salts it
	// with the one-use token, so state.db's copy lets no one guess-check a
	// description. The commit recomputes and compares it.
	Fingerprint string `json:"fingerprint"`
	// PreviewDigest is the hex HMAC-SHA-256, keyed by the review handle,
	// of the preview the popup shows (it holds form values, which an
	// unkeyed digest would let anyone guess-check). The commit recomputes
	// the preview and compares it with the one the human approved, so a
	// field filled after the approval refuses it (stage_target_changed).
	PreviewDigest string `json:"preview_digest"`
}

// CommitParams are browser_commit's arguments.
type CommitParams struct {
	Stage          string `json:"stage"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// ActionableTimeoutMs: as ActParams' (the host fills in the default).
	ActionableTimeoutMs *int `json:"actionable_timeout_ms,omitempty"`
}

// CommitResult reports the committed step.
type CommitResult struct {
	Stage        string       `json:"stage"`
	Effect       Effect       `json:"effect"`
	Tab          string       `json:"tab"`
	Step         StepReceipt  `json:"step"`
	PageRevision int64        `json:"page_revision"`
	URL          string       `json:"url"`
	Title        string       `json:"title"`
	Dialog       *DialogInfo  `json:"dialog,omitempty"`
	OriginStops  []OriginStop `json:"origin_stops,omitempty"`
	Challenge    *Challenge   `json:"challenge,omitempty"`
	Outcome      Outcome      `json:"outcome"`
	Error        *Error       `json:"error,omitempty"`
	Replay       bool         `json:"replay,omitempty"`
}

// ExtCommitParams asks the extension to run an approved stage's step. It
// rechecks ownership, the revision, the fingerprint and the preview, and
// that the review handle is still one it holds (turning YOLO mode on
// drops them), then executes the step without classifying it again.
type ExtCommitParams struct {
	TaskID               string `json:"task_id"`
	TabID                int    `json:"tab_id"`
	ExpectedPageRevision int64  `json:"expected_page_revision"`
	Step                 Step   `json:"step"`
	// ReviewHandleDigest is the hex SHA-256 of the stage's review handle,
	// not the handle: the host keeps only the digest (state.db never holds
	// a handle, and a host restarted between approval and commit still
	// commits), so the extension compares it with its entries' digests.
	ReviewHandleDigest  string `json:"review_handle_digest"`
	Effect              Effect `json:"effect"`
	Fingerprint         string `json:"fingerprint"`
	ActionableTimeoutMs int    `json:"actionable_timeout_ms,omitempty"`
}

// The extension's requests to the host on the popup's behalf (sent like
// NativeLocalFile, answered with a NativeResponse).
const (
	// NativeStageReview: the human approved or denied a stage.
	NativeStageReview = "stage_review"
	// NativeYolo: the human switched YOLO mode; on discards every stage.
	NativeYolo = "yolo"
)

// StageReviewParams carry the popup's decision on one stage, named only by
// its opaque review handle.
type StageReviewParams struct {
	ReviewHandle string `json:"review_handle"`
	Approve      bool   `json:"approve"`
}

// StageReviewResult is the stage's state after the review (approved,
// denied, or what it already was: expired, consumed, discarded).
type StageReviewResult struct {
	State StageState `json:"state"`
}

// YoloParams: the user's YOLO switch.
type YoloParams struct {
	On bool `json:"on"`
}

// YoloResult counts the stages turning YOLO mode on discarded.
type YoloResult struct {
	Discarded int `json:"discarded"`
}
