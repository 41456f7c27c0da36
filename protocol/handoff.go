package protocol

// browser_handoff and attention notices. Source of truth: spec 000 (the
// paragraphs on handoff, notices and idle state; browser_handoff stays
// available on tab_only tabs), spec 001 (one advisory notice per task tab,
// replaced with a new notice_id; notices never gate admission, scheduling,
// Pause or finish; finish clears them) and issue 12.
//
// Notices live in extension storage, not in the host's admission state.
// The host checks ownership and passes the call to the extension, which
// records the notice with the origin Chrome reports for the tab (never one
// the agent or the page gives), shows it in the popup and on the badge,
// and never focuses anything. Only the popup's Open tab, on the user's
// click, focuses that exact tab.

// MethodHandoff is browser_handoff's Core method.
const MethodHandoff = "browser_handoff"

// NativeHandoff records, resolves, dismisses or reports notices (host→extension).
const NativeHandoff = "handoff"

// HandoffAction is what a browser_handoff call does.
type HandoffAction string

const (
	// HandoffRequest records a notice for one owned tab (replacing the
	// tab's open one).
	HandoffRequest HandoffAction = "request"
	// HandoffStatus reports the task's notices (or one tab's) and the
	// user's idle state.
	HandoffStatus HandoffAction = "status"
	// HandoffResolve closes the notice: the agent verified the step is done.
	HandoffResolve HandoffAction = "resolve"
	// HandoffDismiss closes the notice without the step being done.
	HandoffDismiss HandoffAction = "dismiss"
)

// HandoffActions lists every HandoffAction.
var HandoffActions = []HandoffAction{HandoffRequest, HandoffStatus, HandoffResolve, HandoffDismiss}

// HandoffReason is why the human is needed (spec 000: passkeys, security
// keys, CAPTCHA, payment secrets, account recovery, unsupported
// verification; a login the broker cannot do).
type HandoffReason string

const (
	ReasonPasskey         HandoffReason = "passkey"
	ReasonSecurityKey     HandoffReason = "security_key"
	ReasonCaptcha         HandoffReason = "captcha"
	ReasonLogin           HandoffReason = "login"
	ReasonPayment         HandoffReason = "payment"
	ReasonAccountRecovery HandoffReason = "account_recovery"
	ReasonVerification    HandoffReason = "verification"
	ReasonOther           HandoffReason = "other"
)

// HandoffReasons lists every HandoffReason.
var HandoffReasons = []HandoffReason{ReasonPasskey, ReasonSecurityKey, ReasonCaptcha, ReasonLogin, ReasonPayment, ReasonAccountRecovery, ReasonVerification, ReasonOther}

// NoticeState is where a notice is.
// Expiry is not a state: it retires only the reminder (Notice.ExpiresInMs
// reads 0), and the notice stays open until its agent closes it or the
// task finishes.
type NoticeState string

const (
	NoticeOpen NoticeState = "open"
	// NoticeResolved and NoticeDismissed: the agent closed it.
	NoticeResolved  NoticeState = "resolved"
	NoticeDismissed NoticeState = "dismissed"
	// NoticeReplaced: a newer request for the same tab replaced it.
	NoticeReplaced NoticeState = "replaced"
)

// NoticeStates lists every NoticeState.
var NoticeStates = []NoticeState{NoticeOpen, NoticeResolved, NoticeDismissed, NoticeReplaced}

// IdleState is chrome.idle's coarse state with a 60-second threshold
// (spec 000): no input or activity detail, and it gates nothing.
type IdleState string

const (
	IdleActive IdleState = "active"
	IdleIdle   IdleState = "idle"
	IdleLocked IdleState = "locked"
)

// IdleStates lists every IdleState.
var IdleStates = []IdleState{IdleActive, IdleIdle, IdleLocked}

// IdleThresholdSeconds is the idle detection threshold (spec 000).
const IdleThresholdSeconds = 60

// Notice lifetimes: how long a reminder shows (HandoffParams.ExpiresInS).
const (
	MinNoticeSeconds     = 60
	DefaultNoticeSeconds = 15 * 60
	MaxNoticeSeconds     = 60 * 60
)

// MaxHandoffMessage bounds the optional message the popup shows (characters).
const MaxHandoffMessage = 300

// Handoff error codes.
const (
	// CodeNoticeNotFound: resolve or dismiss named a notice that is not
	// the tab's open one (replaced by a newer request, closed, or never
	// this task's).
	CodeNoticeNotFound ErrorCode = "notice_not_found"
	// CodeHandoffInProgress: the human has the tab (its notice is open and
	// it is the active tab of the focused window), so AgentTab does not
	// observe or drive it, and its notice is not resolved or dismissed
	// yet; nothing ran.
	CodeHandoffInProgress ErrorCode = "handoff_in_progress"
)

// HandoffParams are browser_handoff's arguments. Which apply depends on
// Action: request needs Tab and Reason (Message and ExpiresInS optional);
// resolve and dismiss need NoticeID; status takes an optional Tab.
type HandoffParams struct {
	Action         HandoffAction `json:"action"`
	Tab            string        `json:"tab,omitempty"`
	Reason         HandoffReason `json:"reason,omitempty"`
	Message        string        `json:"message,omitempty"`
	NoticeID       string        `json:"notice_id,omitempty"`
	ExpiresInS     *int          `json:"expires_in_s,omitempty"`
	IdempotencyKey string        `json:"idempotency_key,omitempty"`
}

// Notice is one attention notice as an agent sees it. It carries the
// origin Chrome reported when the notice was made; never the message back.
type Notice struct {
	NoticeID string        `json:"notice_id"`
	Tab      string        `json:"tab"`
	Reason   HandoffReason `json:"reason"`
	State    NoticeState   `json:"state"`
	Origin   string        `json:"origin"`
	AgeMs    int64         `json:"age_ms"`
	// ExpiresInMs: how long the reminder still shows (0 once expired).
	ExpiresInMs int64 `json:"expires_in_ms"`
	// HiddenByUser: the user pressed Dismiss in the popup (the reminder is
	// hidden; the notice stays open until the agent closes it).
	HiddenByUser bool `json:"hidden_by_user,omitempty"`
}

// HandoffResult answers every action: the notice it made or closed, or
// (status) the task's notices; and the user's idle state.
type HandoffResult struct {
	Action        HandoffAction `json:"action"`
	Notice        *Notice       `json:"notice,omitempty"`
	Notices       []Notice      `json:"notices,omitempty"`
	UserIdleState IdleState     `json:"user_idle_state"`
	Outcome       Outcome       `json:"outcome"`
	Replay        bool          `json:"replay,omitempty"`
}

// ExtHandoffParams is the call as the host passes it on. TabID is 0 for a
// status of the whole task.
type ExtHandoffParams struct {
	TaskID      string        `json:"task_id"`
	TabID       int           `json:"tab_id,omitempty"`
	Action      HandoffAction `json:"action"`
	Reason      HandoffReason `json:"reason,omitempty"`
	Message     string        `json:"message,omitempty"`
	NoticeID    string        `json:"notice_id,omitempty"`
	ExpiresInMs int64         `json:"expires_in_ms,omitempty"`
}

// ExtNotice is a notice as the extension reports it (the host maps TabID
// to the task's handle).
type ExtNotice struct {
	NoticeID     string        `json:"notice_id"`
	TabID        int           `json:"tab_id"`
	Reason       HandoffReason `json:"reason"`
	State        NoticeState   `json:"state"`
	Origin       string        `json:"origin"`
	AgeMs        int64         `json:"age_ms"`
	ExpiresInMs  int64         `json:"expires_in_ms"`
	HiddenByUser bool          `json:"hidden_by_user,omitempty"`
}

// ExtHandoffResult is the extension's answer.
type ExtHandoffResult struct {
	Notice        *ExtNotice  `json:"notice,omitempty"`
	Notices       []ExtNotice `json:"notices,omitempty"`
	UserIdleState IdleState   `json:"user_idle_state"`
}
