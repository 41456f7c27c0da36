package protocol

// The error catalogue: every ErrorCode with what it means, its default
// outcome and the recovery text an agent reads. Source of truth for those
// texts on both sides (issue 10: "one file"; the extension reads the
// generated twin through failure.ts). A site that knows something more
// specific than the catalogue (the field at fault, the one step to take)
// may pass its own recovery with NewError; everything else uses Fail or
// FailAs. errors_test.go checks that every code has an entry.

// ErrorEntry is one code's catalogue entry.
type ErrorEntry struct {
	// Meaning says in one line what the code means.
	Meaning string `json:"meaning"`
	// Outcome is the code's usual outcome; FailAs overrides it where a
	// site got further (dispatched) or cannot tell (unknown).
	Outcome Outcome `json:"outcome"`
	// Recovery is what the agent does next.
	Recovery string `json:"recovery"`
}

// RecoveryUpdate is the recovery of every failure that means the host and
// the extension disagree on the protocol: the codes that say so, and the
// sites that find it out under another code (an answer or a request that
// does not decode).
const RecoveryUpdate = "Update AgentTab so the host and the extension match (run `agenttab install` and reload the extension)."

// ErrorCatalogue holds every ErrorCode's entry. Read it through Fail and
// FailAs; never change it at run time.
var ErrorCatalogue = map[ErrorCode]ErrorEntry{
	CodeParseError: {
		Meaning:  "the request is not one JSON object",
		Outcome:  OutcomeNotStarted,
		Recovery: "Send each message as one UTF-8 JSON-RPC 2.0 object; on a socket or stdio, one per line, ending with a newline.",
	},
	CodeInvalidRequest: {
		Meaning:  "the request is not a valid JSON-RPC 2.0 request, or comes at the wrong time",
		Outcome:  OutcomeNotStarted,
		Recovery: `Send {"jsonrpc":"2.0","id":<number or string>,"method":"<name>","params":{...}} (a notification has no id).`,
	},
	CodeUnknownMethod: {
		Meaning:  "no such method",
		Outcome:  OutcomeNotStarted,
		Recovery: RecoveryUpdate,
	},
	CodeInvalidParams: {
		Meaning:  "a parameter is missing, malformed or out of range",
		Outcome:  OutcomeNotStarted,
		Recovery: "Check the parameter names and types against the tool's schema.",
	},
	CodeInvalidURL: {
		Meaning:  "the URL is not one AgentTab navigates to",
		Outcome:  OutcomeNotStarted,
		Recovery: "Pass an absolute http(s) URL, for example https://example.com/.",
	},
	CodeMessageTooBig: {
		Meaning:  "a message is larger than the boundary admits",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask for less in one call (a smaller window or fewer items), or send less (fewer steps, shorter text).",
	},
	CodeHostUnavailable: {
		Meaning:  "the host is not running, not reachable or not ready for browser work",
		Outcome:  OutcomeNotStarted,
		Recovery: "Wait a moment and retry; the host becomes ready once the extension has connected and ownership is reconciled. `agenttab status` says what is missing.",
	},
	CodeNotOwned: {
		Meaning:  "the task does not own that tab (or blob)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Call browser_tabs to see the tabs this task owns, or open the page again with browser_open.",
	},
	CodeNoTask: {
		Meaning:  "the connection has no task",
		Outcome:  OutcomeNotStarted,
		Recovery: "Open a tab with browser_open (which starts a task), or resume the task with its capability.",
	},
	CodeNewWindowNotEligible: {
		Meaning:  "placement new_window is only for the first tab of a task that owns no tabs",
		Outcome:  OutcomeNotStarted,
		Recovery: `Omit placement (or pass "tab") to open the tab beside the task's other tabs.`,
	},
	CodeGroupFailed: {
		Meaning:  "Chrome could not put the tab in the task's group",
		Outcome:  OutcomeNotStarted,
		Recovery: "Retry; AgentTab never keeps a tab it cannot show in the task's group.",
	},
	CodeIdempotencyConflict: {
		Meaning:  "the idempotency key was used for a different call",
		Outcome:  OutcomeNotStarted,
		Recovery: "Use a fresh idempotency_key for a different request, or repeat the original arguments exactly.",
	},
	CodeIdempotencyInProgress: {
		Meaning:  "a call with this idempotency key started and never reported completion",
		Outcome:  OutcomeUnknown,
		Recovery: "Check the browser state with browser_tabs before deciding whether to repeat the action with a new key.",
	},
	CodePeerRefused: {
		Meaning:  "the host refused the connecting process",
		Outcome:  OutcomeNotStarted,
		Recovery: "Connect from a process of the same user that AgentTab admits; `agenttab status` lists recent refusals.",
	},
	CodeCapabilityUnconfirmed: {
		Meaning:  "the connection has a resume capability it has not confirmed",
		Outcome:  OutcomeNotStarted,
		Recovery: "Store the capability from the response envelope durably, then call capability_confirm; retry this request after that.",
	},
	CodeChromeError: {
		Meaning:  "Chrome refused or failed an operation",
		Outcome:  OutcomeNotStarted,
		Recovery: "Retry; if Chrome keeps refusing, take a new browser_snapshot or check the tab with browser_tabs.",
	},
	CodeExtensionTimeout: {
		Meaning:  "the extension did not answer in time",
		Outcome:  OutcomeUnknown,
		Recovery: "Check the page with browser_tabs before retrying; if the outcome is unknown, do not assume the step ran or did not run.",
	},
	CodeExtensionGone: {
		Meaning:  "the extension disconnected from the host",
		Outcome:  OutcomeUnknown,
		Recovery: "Chrome or the extension restarted; wait for the host to become ready again, then check your tabs with browser_tabs.",
	},
	CodeVersionMismatch: {
		Meaning:  "the extension and the host speak different protocol versions",
		Outcome:  OutcomeNotStarted,
		Recovery: "Install the extension and host from the same AgentTab release: run `agenttab install` and reload the extension.",
	},
	CodeWrongExtension: {
		Meaning:  "the host was started for another extension",
		Outcome:  OutcomeNotStarted,
		Recovery: "Reinstall with `agenttab install` so the host manifest names this extension.",
	},
	CodeInternal: {
		Meaning:  "AgentTab failed (a bug or a local fault)",
		Outcome:  OutcomeUnknown,
		Recovery: "If the outcome is not_started, retry once; if it is unknown, check the tab with browser_tabs before repeating the call, which may have run in part. If it happens again, run `agenttab status` and report the host log.",
	},
	CodeStaleRef: {
		Meaning:  "the ref no longer names the element of the snapshot it came from",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new browser_snapshot and use the refs it shows.",
	},
	CodeStaleRevision: {
		Meaning:  "the page changed since the expected revision",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new browser_snapshot (its page_revision is current) and act on what it shows.",
	},
	CodeBrowserRestrictedOrigin: {
		Meaning:  "Chrome does not let extensions read or drive this browser-owned page",
		Outcome:  OutcomeNotStarted,
		Recovery: "Only navigate, reload, close, and load or URL waits work here; navigate the tab to a web page first, or ask the user to do this step in the tab.",
	},
	CodeDebuggerUnavailable: {
		Meaning:  "the tab's debugger is not available to AgentTab",
		Outcome:  OutcomeNotStarted,
		Recovery: "Close DevTools or another debugging extension on this tab, or open the page in a new task tab; then check the tab with browser_tabs and retry.",
	},
	CodeSensitiveField: {
		Meaning:  "the target is a password, one-time-code or payment-card field",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask the user to fill it in the tab themselves (name the field), then go on from the next step; AgentTab never sends keys, text, drops or option choices into such a field.",
	},
	CodeTargetNotActionable: {
		Meaning:  "the target cannot take this step (hidden, disabled, or the wrong kind of element)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new browser_snapshot; act on an element that is shown and enabled, or wait for this one (browser_wait until ref).",
	},
	CodeTargetCovered: {
		Meaning:  "another element covers the target (still, after the step waited actionable_timeout_ms for it to go)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Close or act on what covers it first (a dialog, a banner, a menu), then retry.",
	},
	CodeTargetMoving: {
		Meaning:  "the target kept moving (between two looks) until the step's actionable_timeout_ms ran out",
		Outcome:  OutcomeNotStarted,
		Recovery: "Wait for the page to settle (browser_wait), or retry with a longer actionable_timeout_ms.",
	},
	CodeFocusLost: {
		Meaning:  "focus left the field before text went in",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new browser_snapshot: something (a popup, an overlay, a script) took focus.",
	},
	CodeValueNotAccepted: {
		Meaning:  "the field did not take the value: read back, it holds something else",
		Outcome:  OutcomeDispatched,
		Recovery: "Read what the field holds (in the message); give the value in the field's format (date yyyy-mm-dd, time hh:mm, datetime-local yyyy-mm-ddThh:mm, month yyyy-mm, week yyyy-Www, color #rrggbb, a range's number within its bounds) or within its limits, or type it key by key when the page formats it as you type.",
	},
	CodeDialogOpen: {
		Meaning:  "a JavaScript dialog blocks the page",
		Outcome:  OutcomeNotStarted,
		Recovery: `Answer it with a browser_act step {"kind": "dialog", "accept": true or false}, or ask the user to answer it in Chrome.`,
	},
	CodeNavigationFailed: {
		Meaning:  "a navigation did not happen or did not commit",
		Outcome:  OutcomeNotStarted,
		Recovery: "Check the tab's URL with browser_tabs and the network, then retry.",
	},
	CodeSnapshotFailed: {
		Meaning:  "AgentTab could not read the page",
		Outcome:  OutcomeNotStarted,
		Recovery: "Retry once the page has loaded (browser_wait until load); if it keeps failing, reload the page.",
	},
	CodeWaitTimeout: {
		Meaning:  "a wait step's condition did not hold in time",
		Outcome:  OutcomeObserved,
		Recovery: "Take a new browser_snapshot to see where the page is, then wait again or act on what it shows.",
	},
	CodeChildNotOwned: {
		Meaning:  "the page opened a tab the task does not hold",
		Outcome:  OutcomeDispatched,
		Recovery: "Call browser_tabs to see what the task owns; open the page with browser_open if the task needs it.",
	},
	CodeClassificationMismatch: {
		Meaning:  "the extension classified the request differently from the host",
		Outcome:  OutcomeNotStarted,
		Recovery: RecoveryUpdate,
	},
	CodeTooManyTasks: {
		Meaning:  "the host keeps as many detached tasks as it admits",
		Outcome:  OutcomeNotStarted,
		Recovery: "Close the tab groups of agents you no longer need in Chrome (a task without tabs makes room), or let those agents reconnect and call browser_finish; then retry.",
	},
	CodeNeedsUser: {
		Meaning:  "the user did not allow the request",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask the user in your chat to open the AgentTab popup and allow the request (or do the step themselves), then call browser_open with adopt_active again.",
	},
	CodeLocalFileDenied: {
		Meaning:  "the target is a local file the policy does not admit",
		Outcome:  OutcomeNotStarted,
		Recovery: "AgentTab opens a local file (file:) only inside a folder the user admits in policy.json (local_files.allowed_roots), never one in AgentTab's own state directory, never a hard-linked file, and never view-source: of one. Ask the user to admit the folder, or serve the folder over HTTP (for example `python3 -m http.server 8000 --bind 127.0.0.1` in it) and open http://127.0.0.1:8000/ instead.",
	},
	CodeOriginPolicyDenied: {
		Meaning:  "the user's origin policy does not admit the destination",
		Outcome:  OutcomeNotStarted,
		Recovery: "The user's managed policy (policy.json origins) does not let agents go there. Work on an allowed site instead, or ask the user to change the policy.",
	},
	CodeOriginPolicyUnverifiable: {
		Meaning:  "the destination cannot be checked against the origin policy before Chrome goes there",
		Outcome:  OutcomeNotStarted,
		Recovery: "AgentTab cannot check this destination against the user's origin policy before Chrome goes there; navigate explicitly to an allowed http(s) URL (a navigate step or browser_open).",
	},
	CodeBookmarkProtected: {
		Meaning:  "the bookmark is the invisible root, one of its top-level folders, or managed by the administrator",
		Outcome:  OutcomeNotStarted,
		Recovery: "AgentTab never changes the bookmarks root, its top-level folders (Bookmarks bar, Other bookmarks, Mobile bookmarks) or managed bookmarks. Work on a bookmark or folder inside them instead.",
	},
	CodeBookmarkFolderNotEmpty: {
		Meaning:  "bookmarks_remove names a folder that still holds bookmarks or folders",
		Outcome:  OutcomeNotStarted,
		Recovery: "bookmarks_remove removes one bookmark or one empty folder: remove (or move out) what the folder holds first, one stage each.",
	},
	CodeProfileNotFound: {
		Meaning:  "no bookmark, session entry or download has that id",
		Outcome:  OutcomeNotStarted,
		Recovery: "Search or list again (bookmarks_search, bookmarks_tree, sessions_list, downloads_search) and use an id from the answer.",
	},
	CodePaused: {
		Meaning:  "the user paused AgentTab",
		Outcome:  OutcomeNotStarted,
		Recovery: "Wait for the user to resume (the AgentTab popup or `agenttab resume`), then retry; tell the user if the task is blocked.",
	},
	CodeTooManyConnections: {
		Meaning:  "the host already serves as many Core connections as it admits",
		Outcome:  OutcomeNotStarted,
		Recovery: "Close Core clients you no longer use (each `agenttab mcp` and each HTTP MCP session holds one connection), then retry: the host refuses a new connection only while every one it serves is busy or was used moments ago.",
	},
	CodeConnectionIdle: {
		Meaning:  "the host closed an idle Core connection",
		Outcome:  OutcomeNotStarted,
		Recovery: "Connect again; resume the task with its capability (`agenttab mcp` does both by itself). Nothing sent on the closed connection ran.",
	},
	// Issue 12: Commit review, handoff, challenges, the popup's End task.
	CodeStageNotFound: {
		Meaning:  "this task has no stage with that id",
		Outcome:  OutcomeNotStarted,
		Recovery: "Use the stage id from the staged step's receipt (steps[i].stage.stage) of this task's own browser_act; a stage of another task is never found.",
	},
	CodeStageNotApproved: {
		Meaning:  "the user has not approved the stage in the AgentTab popup yet",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask the user in your chat to review the staged action in the AgentTab popup and press Approve, wait for their word, then call browser_commit again with the same stage.",
	},
	CodeStageDenied: {
		Meaning:  "the user denied the stage",
		Outcome:  OutcomeNotStarted,
		Recovery: "Do not retry the action; ask the user what they want instead.",
	},
	CodeStageExpired: {
		Meaning:  "the stage expired (five minutes) before it was committed",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new snapshot and run the step again with browser_act to stage it anew, then ask the user to approve it.",
	},
	CodeStageConsumed: {
		Meaning:  "a browser_commit already took this stage; it never runs twice",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a snapshot to see what the first commit did; stage the action again with browser_act only if it must run again.",
	},
	CodeStageDiscarded: {
		Meaning:  "the stage was discarded (the user turned YOLO mode on, or the task finished)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new snapshot and run the step again with browser_act; with YOLO mode on it runs without review.",
	},
	CodeStageStale: {
		Meaning:  "the tab navigated since the stage was made",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new snapshot, check the page, and stage the action again with browser_act.",
	},
	CodeStageTargetChanged: {
		Meaning:  "the staged control is gone or changed since the stage was made, or its form's values changed after the user approved them",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a new snapshot, check the page, and stage the action again with browser_act.",
	},
	CodeNoticeNotFound: {
		Meaning:  "the notice is not the tab's open one (replaced by a newer request, or closed)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Call browser_handoff with action status to see this task's notices and their ids.",
	},
	CodeHandoffInProgress: {
		Meaning:  "the user has this tab for a handoff (its notice is open and it is the tab they are looking at), so AgentTab does not read or drive it, nor close its notice",
		Outcome:  OutcomeNotStarted,
		Recovery: "Wait for the user's word in your chat that they are done; once they have left the tab, check the page (browser_snapshot) and resolve the notice with browser_handoff. Meanwhile other tabs work as usual.",
	},
	CodeChallengePresent: {
		Meaning:  "the target belongs to a recognised bot challenge (or the page is a challenge interstitial); AgentTab gives it no input",
		Outcome:  OutcomeNotStarted,
		Recovery: "Hand the step to the user: browser_handoff with action request, reason captcha; ask them in your chat, wait for their word, then verify the page.",
	},
	CodeTaskEnded: {
		Meaning:  "the user ended this task from the AgentTab popup; its tabs were released",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask the user before going on; a new browser_open starts a new task.",
	},
	CodeTaskBusy: {
		Meaning:  "the task is in the middle of a call of its agent, so it was not ended",
		Outcome:  OutcomeNotStarted,
		Recovery: "Try again in a moment, when the call is done.",
	},
	// Issue 13: the 1Password broker, uploads, Developer mode.
	CodeCredentialTokenInvalid: {
		Meaning:  "the credential token is unknown, used, expired, another task's, or its tab navigated since it was made",
		Outcome:  OutcomeNotStarted,
		Recovery: "Call browser_credentials with action prepare again for the tab as it is now, and use the token it returns (each token works once).",
	},
	CodeOnePasswordDisabled: {
		Meaning:  "the user's policy turned the 1Password broker off",
		Outcome:  OutcomeNotStarted,
		Recovery: "Hand the login to the user: browser_handoff with action request, reason login.",
	},
	CodeCredentialFieldUnfit: {
		Meaning:  "the ref is not a field for that value (a password goes only into a password field, a username into a text or email field, a code into a one-time-code or text field), or it is in a frame of another origin than the tab",
		Outcome:  OutcomeNotStarted,
		Recovery: "Take a snapshot and pass the ref of the login form's field for that value.",
	},
	CodeUploadDenied: {
		Meaning:  "the file is not one the user's policy admits for upload (outside uploads.dlp_allowed_roots, not a regular file, a symlink or hard link, changed while it was checked), or no folder is admitted",
		Outcome:  OutcomeNotStarted,
		Recovery: "Ask the user to put the file in a folder their policy admits for uploads (uploads.dlp_allowed_roots in AgentTab's policy.json), then pass its path there.",
	},
	CodeUploadTooLarge: {
		Meaning:  "the file is larger than the user's policy admits for one upload (uploads.max_bytes)",
		Outcome:  OutcomeNotStarted,
		Recovery: "Tell the user; only they can raise uploads.max_bytes in AgentTab's policy.json, or hand the upload to them with browser_handoff.",
	},
	CodeDeveloperModeDisabled: {
		Meaning:  "Developer mode is off in the user's policy",
		Outcome:  OutcomeNotStarted,
		Recovery: "Use the Standard tools; only the user can turn Developer mode on (developer_mode.enabled in AgentTab's policy.json).",
	},
}

// Fail is the failure of code with the catalogue's outcome and recovery.
func Fail(code ErrorCode, message string) *Error {
	e := ErrorCatalogue[code]
	return &Error{Code: code, Message: message, Recovery: e.Recovery, Outcome: e.Outcome}
}

// FailAs is Fail with the outcome the site knows (a step that got as far
// as dispatched, an answer that went missing after sending).
func FailAs(code ErrorCode, outcome Outcome, message string) *Error {
	e := Fail(code, message)
	e.Outcome = outcome
	return e
}
