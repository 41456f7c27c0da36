package protocol

// Page work: snapshots with refs, actions with receipts, and waits
// (issue 3). Core methods equal the MCP tool names.
const (
	MethodSnapshot = "browser_snapshot"
	MethodAct      = "browser_act"
	MethodWait     = "browser_wait"
)

// MethodBlobRead returns a blob (a screenshot) of the caller's own task, for
// the adapters' resource reads.
const MethodBlobRead = "blob_read"

// BlobReadParams names a blob by its URI.
type BlobReadParams struct {
	URI string `json:"uri"`
}

// BlobReadResult is the blob's content, base64-encoded.
type BlobReadResult struct {
	MimeType string `json:"mime_type"`
	Base64   string `json:"base64"`
}

// Host→extension page methods.
const (
	NativeSnapshot = "snapshot"
	NativeAct      = "act"
	NativeWait     = "wait"
)

// Page-work error codes.
const (
	CodeStaleRef                ErrorCode = "stale_ref"
	CodeStaleRevision           ErrorCode = "stale_revision"
	CodeBrowserRestrictedOrigin ErrorCode = "browser_restricted_origin"
	CodeDebuggerUnavailable     ErrorCode = "debugger_unavailable"
	CodeSensitiveField          ErrorCode = "sensitive_field"
	CodeTargetNotActionable     ErrorCode = "target_not_actionable"
	CodeTargetCovered           ErrorCode = "target_covered"
	CodeTargetMoving            ErrorCode = "target_moving"
	CodeFocusLost               ErrorCode = "focus_lost"
	CodeDialogOpen              ErrorCode = "dialog_open"
	CodeNavigationFailed        ErrorCode = "navigation_failed"
	CodeSnapshotFailed          ErrorCode = "snapshot_failed"
	// CodeValueNotAccepted: a fill the field did not take (a date not in
	// its format, a range value out of bounds, text the page limits or
	// rejects): the message says what the field holds (issue 11).
	CodeValueNotAccepted ErrorCode = "value_not_accepted"
	// CodeWaitTimeout: a wait step's condition did not hold in time (the
	// batch stops there); browser_wait itself answers satisfied=false.
	CodeWaitTimeout ErrorCode = "wait_timeout"
	// CodeChildNotOwned: a step's page opened a tab AgentTab could not take
	// into the task's group (a popup-type window, a refused URL); the tab
	// stays open and belongs to the user (DESIGN.md "Ownership").
	CodeChildNotOwned ErrorCode = "child_not_owned"
	// CodeClassificationMismatch: the extension classified a request
	// differently from the host (a read that would change something);
	// nothing ran.
	CodeClassificationMismatch ErrorCode = "classification_mismatch"
)

// SnapshotMode selects what a snapshot keeps.
type SnapshotMode string

const (
	// SnapshotInteractive keeps what an agent can act on plus the text
	// around it (the default).
	SnapshotInteractive SnapshotMode = "interactive"
	// SnapshotFull keeps everything visible.
	SnapshotFull SnapshotMode = "full"
	// SnapshotReadable is the bounded reading projection: visible text as
	// semantic blocks, selected text and links.
	SnapshotReadable SnapshotMode = "readable"
)

// SnapshotModes lists every SnapshotMode, in the order agents see them.
var SnapshotModes = []SnapshotMode{SnapshotInteractive, SnapshotFull, SnapshotReadable}

// ScreenshotKind selects an optional screenshot with a snapshot.
type ScreenshotKind string

const (
	ScreenshotNone     ScreenshotKind = "none"
	ScreenshotViewport ScreenshotKind = "viewport"
	ScreenshotFullPage ScreenshotKind = "full_page"
)

// ScreenshotKinds lists every ScreenshotKind.
var ScreenshotKinds = []ScreenshotKind{ScreenshotNone, ScreenshotViewport, ScreenshotFullPage}

// SnapshotStatus says whether the text is all there is.
type SnapshotStatus string

const (
	SnapshotComplete  SnapshotStatus = "complete"
	SnapshotTruncated SnapshotStatus = "truncated"
	// SnapshotClipped: the window holds the whole snapshot, but its mode
	// clipped long texts (SnapshotResult.Clipped; issue 11: the default
	// snapshot is never silently blind).
	SnapshotClipped SnapshotStatus = "clipped"
	SnapshotFailure SnapshotStatus = "failure"
)

// ClippedText is what a snapshot's mode cut out of long texts: interactive
// keeps a text run's first words and clips names and values past their
// limit; full and readable clip only names and values. Each cut is marked
// in the text ("… (+312 chars)" after a text, "…" in a name or value).
type ClippedText struct {
	// Texts is how many texts were cut.
	Texts int `json:"texts"`
	// Chars is the characters they left out.
	Chars int `json:"chars"`
}

// Text window limits (characters).
const (
	DefaultMaxChars = 40000
	// MaxMaxChars lets one window hold a whole capture, a 20,000-element
	// page's included (issue 11); the host still ends a window early when
	// its text would not fit one Core answer (internal/host/window.go).
	MaxMaxChars = MaxCaptureChars
	// MaxCaptureChars bounds what a cache_key keeps host-side.
	MaxCaptureChars = 2000000
)

// SnapshotParams are browser_snapshot's arguments.
// The jsonschema tags are the descriptions an agent reads in the tool's
// schema (the MCP adapter uses this type as the tool's input). MaxChars is
// a pointer, as every optional count with a default is, so that an explicit
// 0 is refused instead of read as the default.
type SnapshotParams struct {
	Tab          string         `json:"tab" jsonschema:"The tab handle from browser_open or browser_tabs."`
	Mode         SnapshotMode   `json:"mode,omitempty" jsonschema:"interactive (default): what you can act on plus the text around it. full: everything visible. readable: the page's text as blocks, for reading."`
	Start        int            `json:"start,omitempty" jsonschema:"First character of the window (default 0). To read on, pass the previous coverage.end."`
	MaxChars     *int           `json:"max_chars,omitempty" jsonschema:"Window size in characters, 1 to 2000000 (omit it for 40000)."`
	CacheKey     string         `json:"cache_key,omitempty" jsonschema:"Optional name for a capture kept by AgentTab: later calls with the same key read other windows or find text without reading the page again."`
	CaptureChars int            `json:"capture_chars,omitempty" jsonschema:"With cache_key: how many characters to capture (up to 2000000)."`
	Find         string         `json:"find,omitempty" jsonschema:"Start the window at the line holding the first match of this text (case-insensitive) at or after start."`
	Screenshot   ScreenshotKind `json:"screenshot,omitempty" jsonschema:"none (default), viewport or full_page: a PNG saved to a file and returned by reference."`
	InlineImage  bool           `json:"inline_image,omitempty" jsonschema:"Also return the screenshot inline as an image (costly in context)."`
}

// Coverage says which characters of the whole text a window holds.
type Coverage struct {
	Start int `json:"start"`
	End   int `json:"end"`
	Total int `json:"total"`
}

// BlobRef is binary data passed by reference: an owner-only file in the
// state directory, also reachable as an MCP resource.
type BlobRef struct {
	Path     string `json:"path"`
	URI      string `json:"uri"`
	MimeType string `json:"mime_type"`
	Bytes    int    `json:"bytes"`
}

// DialogInfo is a JavaScript dialog waiting for an answer.
type DialogInfo struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"default_prompt,omitempty"`
}

// SnapshotResult is one window of a snapshot's text.
type SnapshotResult struct {
	Tab          string         `json:"tab"`
	URL          string         `json:"url"`
	Title        string         `json:"title"`
	PageRevision int64          `json:"page_revision"`
	RefEpoch     int64          `json:"ref_epoch"`
	Mode         SnapshotMode   `json:"mode"`
	Coverage     Coverage       `json:"coverage"`
	Status       SnapshotStatus `json:"status"`
	// TruncatedReason says why Status is not complete and what to do.
	TruncatedReason string `json:"truncated_reason,omitempty"`
	// Clipped is what the mode cut out of long texts in the whole capture,
	// when it cut anything; the reason then says how to read them whole.
	Clipped *ClippedText `json:"clipped,omitempty"`
	// Text is the tree. The MCP adapter moves it into the text content.
	Text     string `json:"text,omitempty"`
	CacheKey string `json:"cache_key,omitempty"`
	// Found reports whether find matched (only when find was given); the
	// window then starts at the line of the first match at or after start.
	Found      *bool       `json:"found,omitempty"`
	Screenshot *BlobRef    `json:"screenshot,omitempty"`
	Dialog     *DialogInfo `json:"dialog,omitempty"`
	// ServedBy is the route that read the page: "debugger" or "scripting"
	// (top frame only, through the optional scripting permission).
	ServedBy string `json:"served_by,omitempty"`
	// LacksUserActivation: actions on this page go through the scripting
	// route as DOM events without Chrome user activation (spec 000), so a
	// page that requires a trusted gesture can ignore them.
	LacksUserActivation bool `json:"lacks_user_activation,omitempty"`
	// OriginStops: navigations the page started toward refused origins
	// since the tab's last result, stopped by the origin guard.
	OriginStops []OriginStop `json:"origin_stops,omitempty"`
	// Challenge: the tab shows a recognised bot challenge (or one just
	// went away); see challenge.go.
	Challenge *Challenge `json:"challenge,omitempty"`
	Outcome   Outcome    `json:"outcome"`
}

// ExtSnapshotParams asks the extension for a snapshot of an owned tab.
type ExtSnapshotParams struct {
	TaskID string       `json:"task_id"`
	TabID  int          `json:"tab_id"`
	Mode   SnapshotMode `json:"mode"`
	// CaptureChars bounds the text the extension builds and returns.
	CaptureChars int            `json:"capture_chars"`
	Screenshot   ScreenshotKind `json:"screenshot"`
}

// ExtSnapshotResult is the whole captured text (up to CaptureChars).
type ExtSnapshotResult struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	Revision int64  `json:"revision"`
	RefEpoch int64  `json:"ref_epoch"`
	Text     string `json:"text"`
	// Truncated is set when the page's text was longer than CaptureChars;
	// Total is then the full length when known, else the captured length.
	Truncated bool `json:"truncated"`
	Total     int  `json:"total"`
	// Clipped sums the frames' clipping (absent when none clipped).
	Clipped *ClippedText `json:"clipped,omitempty"`
	Dialog  *DialogInfo  `json:"dialog,omitempty"`
	// ScreenshotPNG is base64 PNG data when a screenshot was asked for.
	ScreenshotPNG string `json:"screenshot_png,omitempty"`
	// ServedBy is the route that read the page (RouteDebugger or RouteScripting).
	ServedBy string `json:"served_by"`
	// LacksUserActivation: see SnapshotResult.
	LacksUserActivation bool         `json:"lacks_user_activation,omitempty"`
	OriginStops         []OriginStop `json:"origin_stops,omitempty"`
	Challenge           *Challenge   `json:"challenge,omitempty"`
}

// The page-work routes (spec 000): the debugger, or the scripting route
// when Chrome refuses the debugger and the user turned automation on.
const (
	RouteDebugger  = "debugger"
	RouteScripting = "scripting"
)

// MaxSteps bounds one browser_act batch.
const MaxSteps = 32

// Step is one browser_act step. Which fields apply depends on Kind.
type Step struct {
	Kind StepKind `json:"kind" jsonschema:"What to do."`
	// Ref is the target element (click … uncheck, scroll into view, drag
	// source).
	Ref string `json:"ref,omitempty" jsonschema:"The target element's ref from the latest snapshot (click … uncheck, drag source; scroll: into view)."`
	// Text is typed (type appends, fill replaces).
	Text string `json:"text,omitempty" jsonschema:"type: text appended; fill: text replacing the value."`
	// Keys is a key or chord for press: "Enter", "Control+A", "Shift+Tab".
	Keys string `json:"keys,omitempty" jsonschema:"press: a key or chord, e.g. Enter, Tab, Escape, ArrowDown, Control+A, Shift+Tab."`
	// Values are options to select, by label or value.
	Values []string `json:"values,omitempty" jsonschema:"select: option labels or values (several for a multiple select)."`
	// URL is the navigate target.
	URL string `json:"url,omitempty" jsonschema:"navigate: the absolute URL to load."`
	// ToRef is the drag target.
	ToRef string `json:"to_ref,omitempty" jsonschema:"drag: the ref to drop on."`
	// Position is where in the to_ref element a drag releases.
	Position DropPosition `json:"position,omitempty" jsonschema:"drag: where in to_ref to release: center (default), before or after it along its list (its half facing the previous or next item), as sortable lists place the dragged item."`
	// DeltaX and DeltaY scroll by an amount in CSS pixels.
	DeltaX int `json:"delta_x,omitempty" jsonschema:"scroll: horizontal amount in CSS pixels (page, or the ref's element)."`
	DeltaY int `json:"delta_y,omitempty" jsonschema:"scroll: vertical amount in CSS pixels; positive scrolls down."`
	// Accept and PromptText answer a JavaScript dialog.
	Accept     *bool  `json:"accept,omitempty" jsonschema:"dialog: true to accept (OK), false to dismiss."`
	PromptText string `json:"prompt_text,omitempty" jsonschema:"dialog: the text to answer a prompt() with."`
	// Wait is the condition of a wait step.
	Wait *WaitCondition `json:"wait,omitempty" jsonschema:"wait: the condition, as in browser_wait."`
	// Path is the local file an upload_file step sets on its file input:
	// absolute, below one of the policy's uploads.dlp_allowed_roots. The
	// host replaces it with its private staged copy before the extension
	// sees the step; it never appears in a result, log or the audit.
	Path string `json:"path,omitempty" jsonschema:"upload_file: the absolute path of the local file to upload, inside a folder the user's policy admits for uploads."`
}

// Navigation says what a step did to the page's document.
type Navigation string

const (
	NavigationCommitted    Navigation = "committed"
	NavigationSameDocument Navigation = "same_document"
	NavigationRefused      Navigation = "refused"
	NavigationAbandoned    Navigation = "abandoned"
	NavigationUnknown      Navigation = "unknown"
)

// StepReceipt is one step's outcome.
type StepReceipt struct {
	Index      int        `json:"index"`
	Kind       StepKind   `json:"kind"`
	Outcome    Outcome    `json:"outcome"`
	Navigation Navigation `json:"navigation,omitempty"`
	// Note is a short factual remark (what was typed into, which option
	// was selected).
	Note string `json:"note,omitempty"`
	// ServedBy is the route that worked in the page ("debugger" or
	// "scripting"); absent for tab-lifecycle steps (navigate, reload,
	// back, forward, close, load and URL waits), which use chrome.tabs.
	ServedBy string `json:"served_by,omitempty"`
	// LacksUserActivation: the step went out as DOM events without Chrome
	// user activation (the scripting route; spec 000).
	LacksUserActivation bool   `json:"lacks_user_activation,omitempty"`
	Error               *Error `json:"error,omitempty"`
	// Popups are the tabs the page opened during the step (window.open,
	// target=_blank): background tabs owned by the task, or an error.
	Popups []Popup `json:"popups,omitempty"`
	// WaitedMs is how long the step waited for its target to become
	// actionable (shown, still, enabled, uncovered) before it acted or was
	// refused; absent when it did not wait (issue 11).
	WaitedMs int `json:"waited_ms,omitempty"`
	// Stage: the step was staged for review (outcome staged); commit it
	// with browser_commit once the user approved it in the popup. The
	// host fills it in from the extension's ExtStage.
	Stage *StageInfo `json:"stage,omitempty"`
}

// Popup is a tab a step's page opened.
type Popup struct {
	// Tab is the new tab's handle when the task owns it.
	Tab   string `json:"tab,omitempty"`
	URL   string `json:"url"`
	Error *Error `json:"error,omitempty"`
}

// ExtPopup is a tab a step's page opened, as the extension reports it.
type ExtPopup struct {
	Step  int    `json:"step"`
	TabID int    `json:"tab_id"`
	URL   string `json:"url"`
	Owned bool   `json:"owned"`
	Error *Error `json:"error,omitempty"`
}

// ActParams are browser_act's arguments.
type ActParams struct {
	Tab                  string `json:"tab"`
	ExpectedPageRevision int64  `json:"expected_page_revision"`
	Actions              []Step `json:"actions"`
	IdempotencyKey       string `json:"idempotency_key,omitempty"`
	SnapshotAfter        bool   `json:"snapshot_after,omitempty"`
	// ActionableTimeoutMs bounds each step's wait for its target to become
	// actionable: 0 to MaxActionableMs, DefaultActionableMs when absent
	// (the host fills it in); 0 refuses at once. A pointer, so that an
	// explicit 0 is not read as the default.
	ActionableTimeoutMs *int `json:"actionable_timeout_ms,omitempty"`
}

// Actionability waits (ActParams.ActionableTimeoutMs; issue 11, after
// Playwright's auto-wait): a step whose target is hidden, transparent,
// disabled, moving or covered looks again until it is actionable or this
// much time has passed, and only then is refused. A few seconds covers an
// accordion or a dialog animating in a background tab, whose frames
// Chrome throttles (docs/notes/background-tabs.md).
const (
	DefaultActionableMs = 5000
	MaxActionableMs     = 30000
)

// ActResult is the receipt of a batch.
type ActResult struct {
	Tab          string          `json:"tab"`
	Steps        []StepReceipt   `json:"steps"`
	PageRevision int64           `json:"page_revision"`
	URL          string          `json:"url"`
	Title        string          `json:"title"`
	Dialog       *DialogInfo     `json:"dialog,omitempty"`
	Snapshot     *SnapshotResult `json:"snapshot,omitempty"`
	// OriginStops: see SnapshotResult (stops a step caused are on its receipt).
	OriginStops []OriginStop `json:"origin_stops,omitempty"`
	Challenge   *Challenge   `json:"challenge,omitempty"`
	Outcome     Outcome      `json:"outcome"`
	// Error is the failed step's error when the batch stopped early; the
	// receipts still say what ran.
	Error  *Error `json:"error,omitempty"`
	Replay bool   `json:"replay,omitempty"`
}

// ExtActParams asks the extension to run a batch on an owned tab.
type ExtActParams struct {
	TaskID               string `json:"task_id"`
	TabID                int    `json:"tab_id"`
	ExpectedPageRevision int64  `json:"expected_page_revision"`
	Actions              []Step `json:"actions"`
	// ActionableTimeoutMs is ActParams' after the host's default; absent
	// (0) refuses a target that is not actionable at once.
	ActionableTimeoutMs int `json:"actionable_timeout_ms,omitempty"`
}

// ExtActResult is the batch's receipt as the extension saw it.
type ExtActResult struct {
	Steps       []StepReceipt `json:"steps"`
	Revision    int64         `json:"revision"`
	URL         string        `json:"url"`
	Title       string        `json:"title"`
	Closed      bool          `json:"closed"`
	Dialog      *DialogInfo   `json:"dialog,omitempty"`
	Popups      []ExtPopup    `json:"popups,omitempty"`
	OriginStops []OriginStop  `json:"origin_stops,omitempty"`
	// Staged is the step the batch stopped at for review (YOLO mode off).
	Staged    *ExtStage  `json:"staged,omitempty"`
	Challenge *Challenge `json:"challenge,omitempty"`
}

// WaitUntil names a wait condition.
type WaitUntil string

const (
	WaitLoad       WaitUntil = "load"
	WaitURL        WaitUntil = "url"
	WaitText       WaitUntil = "text"
	WaitRef        WaitUntil = "ref"
	WaitNavigation WaitUntil = "navigation"
	WaitDownload   WaitUntil = "download"
	// WaitNetworkIdle: no request of the tab in flight for idle_ms (from
	// the debugger's network events; issue 5).
	WaitNetworkIdle WaitUntil = "network_idle"
)

// WaitUntils lists every WaitUntil, in the order agents see them.
var WaitUntils = []WaitUntil{WaitLoad, WaitURL, WaitText, WaitRef, WaitNavigation, WaitNetworkIdle, WaitDownload}

// WaitState is the state a ref wait waits for its element to reach.
type WaitState string

const (
	// WaitVisible is the default.
	WaitVisible WaitState = "visible"
	WaitHidden  WaitState = "hidden"
	WaitEnabled WaitState = "enabled"
)

// WaitStates lists every WaitState.
var WaitStates = []WaitState{WaitVisible, WaitHidden, WaitEnabled}

// Network-idle quiet periods (WaitCondition.IdleMs).
const (
	DefaultIdleMs = 500
	MaxIdleMs     = 10_000
)

// DownloadInfo is a download the tab started, attributed to it by the
// tab's own debugger events (Page.downloadWillBegin and
// Page.downloadProgress), not by Chrome's downloads API, which cannot say
// which tab started one and backs browser_profile only (spec 000). ID is
// Chrome's download guid. FileName is the name the page suggested: Chrome
// may save the file under another (" (1)" added when the name is taken).
// Bytes are those received (the whole file once complete).
type DownloadInfo struct {
	ID       string        `json:"id"`
	FileName string        `json:"file_name"`
	URL      string        `json:"url"`
	Bytes    int64         `json:"bytes"`
	State    DownloadState `json:"state"`
}

// DownloadState is how far a download got, as Page.downloadProgress says.
type DownloadState string

const (
	DownloadInProgress DownloadState = "in_progress"
	// DownloadComplete: the file is in place under its final name.
	DownloadComplete DownloadState = "complete"
	DownloadCanceled DownloadState = "canceled"
)

// Wait timeouts (WaitCondition.TimeoutMs).
const (
	DefaultWaitMs = 5000
	MaxWaitMs     = 30000
)

// WaitCondition is what browser_wait (or a wait step) waits for. IdleMs
// and TimeoutMs are pointers so that an explicit 0 is refused instead of
// read as the default.
type WaitCondition struct {
	Until WaitUntil `json:"until" jsonschema:"load: the page finished loading; url: the URL matches; text: text appears (or disappears); ref: an element reaches a state; navigation: the next navigation commits; network_idle: no request in flight for idle_ms; download: a download this tab starts ends, complete or canceled (the result names it)."`
	// URL matches the tab's URL: exactly, or as a glob where * matches any
	// run of characters.
	URL string `json:"url,omitempty" jsonschema:"until url: the URL, exact or a glob with * (e.g. https://example.com/done*)."`
	// Text appears in (or, with Gone, disappears from) the page's visible
	// text.
	Text string `json:"text,omitempty" jsonschema:"until text: the visible text to wait for."`
	Gone bool   `json:"gone,omitempty" jsonschema:"until text: wait for the text to disappear instead."`
	// Ref and State: the element reaches State (WaitVisible when omitted).
	Ref       string    `json:"ref,omitempty" jsonschema:"until ref: the element's ref."`
	State     WaitState `json:"state,omitempty" jsonschema:"until ref: visible (default), hidden or enabled."`
	IdleMs    *int      `json:"idle_ms,omitempty" jsonschema:"until network_idle: how long no request may be in flight, 1 to 10000 ms (omit it for 500)."`
	TimeoutMs *int      `json:"timeout_ms,omitempty" jsonschema:"How long to wait, 1 to 30000 ms (omit it for 5000)."`
}

// WaitParams are browser_wait's arguments.
type WaitParams struct {
	Tab       string        `json:"tab"`
	Condition WaitCondition `json:"condition"`
}

// WaitResult says whether the condition held in time, and what was last
// seen either way.
type WaitResult struct {
	Tab          string    `json:"tab"`
	Until        WaitUntil `json:"until"`
	Satisfied    bool      `json:"satisfied"`
	ElapsedMs    int       `json:"elapsed_ms"`
	URL          string    `json:"url"`
	Title        string    `json:"title"`
	PageRevision int64     `json:"page_revision"`
	LastSeen     string    `json:"last_seen,omitempty"`
	// Download is the download a download wait saw (finished or not).
	Download *DownloadInfo `json:"download,omitempty"`
	// ServedBy is the route that read the page for a text or ref wait.
	ServedBy string `json:"served_by,omitempty"`
	// OriginStops: see SnapshotResult.
	OriginStops []OriginStop `json:"origin_stops,omitempty"`
	Challenge   *Challenge   `json:"challenge,omitempty"`
	Outcome     Outcome      `json:"outcome"`
}

// ExtWaitParams asks the extension to wait on an owned tab.
type ExtWaitParams struct {
	TaskID    string        `json:"task_id"`
	TabID     int           `json:"tab_id"`
	Condition WaitCondition `json:"condition"`
}

// ExtWaitResult is the extension's answer.
type ExtWaitResult struct {
	Satisfied   bool          `json:"satisfied"`
	ElapsedMs   int           `json:"elapsed_ms"`
	URL         string        `json:"url"`
	Title       string        `json:"title"`
	Revision    int64         `json:"revision"`
	LastSeen    string        `json:"last_seen,omitempty"`
	Download    *DownloadInfo `json:"download,omitempty"`
	ServedBy    string        `json:"served_by,omitempty"`
	OriginStops []OriginStop  `json:"origin_stops,omitempty"`
	Challenge   *Challenge    `json:"challenge,omitempty"`
}
