package protocol

// Native messages travel between the host and the extension's service
// worker over Chrome native messaging (4-byte native-endian length + UTF-8
// JSON). Every message has a "type".

// Native message types.
const (
	NativeTypeHello    = "hello"
	NativeTypeWelcome  = "welcome"
	NativeTypeReject   = "reject"
	NativeTypeRequest  = "request"
	NativeTypeResponse = "response"
	NativeTypeEvent    = "event"
)

// Host→extension request methods.
const (
	NativeReconcile = "reconcile"
	NativeOpen      = "open"
	NativeTabs      = "tabs"
	NativeFinish    = "finish"
	NativePing      = "ping"
)

// NativeMethod is a host→extension request method: one of NativeParams's
// keys (tsgen writes it as their union).
type NativeMethod string

// NativeParams is every host→extension request method with a zero value of
// its params (struct{} for none): the one list of them. tsgen writes it as
// an interface from method to params type, so the extension's dispatch
// table (dispatch.ts) fails to compile when it misses a method.
var NativeParams = map[NativeMethod]any{
	NativeReconcile:      ReconcileParams{},
	NativeAdopt:          ExtAdoptParams{},
	NativePausing:        struct{}{},
	NativePause:          struct{}{},
	NativeUnpause:        struct{}{},
	NativeOpen:           ExtOpenParams{},
	NativeTabs:           ExtTabsParams{},
	NativeFinish:         ExtFinishParams{},
	NativeSnapshot:       ExtSnapshotParams{},
	NativeAct:            ExtActParams{},
	NativeWait:           ExtWaitParams{},
	NativePing:           struct{}{},
	NativeCommit:         ExtCommitParams{},
	NativeHandoff:        ExtHandoffParams{},
	NativeCredentialFill: ExtCredentialFillParams{},
	NativeDeveloper:      ExtDeveloperParams{},
	NativeProfile:        ExtProfileParams{},
}

// ExtRequests is every extension→host request method with a zero value of
// its params: the one list of them (the host's answerExtension serves
// each; tsgen writes the union ExtRequestMethod).
var ExtRequests = map[string]any{
	NativeLocalFile:    LocalFileParams{},
	NativeStageReview:  StageReviewParams{},
	NativeYolo:         YoloParams{},
	NativeTaskOverview: struct{}{},
	NativeEndTask:      EndTaskParams{},
}

// Extension→host event names.
const (
	EventRevoked  = "revoked"
	EventRevision = "revision"
	// EventChild: the extension took a tab an owned tab's page opened into
	// the opener's task group (spec 001's second ownership path).
	EventChild = "child"
)

// ChildNotice reports a tab that became owned as the child of an owned opener.
type ChildNotice struct {
	TaskID      string `json:"task_id"`
	OpenerTabID int    `json:"opener_tab_id"`
	Tab         ExtTab `json:"tab"`
}

// NativeHello is the extension's first message on a new port.
type NativeHello struct {
	Type             string `json:"type" ts:"\"hello\""`
	ProtocolVersion  int    `json:"protocol_version"`
	ExtensionID      string `json:"extension_id"`
	ExtensionVersion string `json:"extension_version"`
	// Paused is the extension's persisted pause, restored before the
	// hello (and so before reconciliation) after a browser restart.
	Paused bool `json:"paused"`
	// PauseReason says who paused (absent when not paused).
	PauseReason PauseReason `json:"pause_reason,omitempty"`
	// Yolo is the user's YOLO switch (extension storage). When it is on
	// the host discards the stages it holds: the switch may have been
	// turned on while the host was away (spec 000: turning YOLO mode on
	// discards pending staged actions).
	Yolo bool `json:"yolo"`
}

// NativeWelcome accepts the handshake; reconciliation follows at once.
// The extension reads it through its generated decoder.
//
//tsgen:decode
type NativeWelcome struct {
	Type            string `json:"type" ts:"\"welcome\""`
	ProtocolVersion int    `json:"protocol_version"`
	HostVersion     string `json:"host_version"`
	// Origins is the managed origin policy, which the extension enforces
	// on navigations the pages of owned tabs start (origins.go).
	Origins OriginPolicy `json:"origins"`
	// LocalFiles: policy.json admits local folders, so the extension
	// holds the debugger on every owned tab and asks the host
	// (NativeLocalFile) about each file: request (localfiles.go).
	LocalFiles bool `json:"local_files"`
}

// NativeReject refuses the handshake; the host exits after sending it.
type NativeReject struct {
	Type  string `json:"type" ts:"\"reject\""`
	Error Error  `json:"error"`
}

// NativeRequest is a host→extension call; the extension answers with a
// NativeResponse carrying the same id. The extension makes one kind of
// call the other way (NativeLocalFile, localfiles.go), without a class.
type NativeRequest struct {
	Type   string `json:"type" ts:"\"request\""`
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
	// Class is the host's classification of the request; the extension
	// classifies it again on its own and refuses a mismatch
	// (classification_mismatch): a click labelled as a read would be an
	// approval bypass, not metadata.
	Class RequestClass `json:"class,omitempty"`
}

// RequestClass says how a request may touch the browser. Source of truth:
// spec 001 (reads wait behind the relevant tab mutation; browser-global
// operations pass a separate global barrier) and issue 4.
type RequestClass string

const (
	// ClassRead observes: snapshot, tabs, wait, ping, an act batch of waits only.
	ClassRead RequestClass = "read"
	// ClassMutation may change a page or a tab: open (into a new window
	// too), act, finish.
	ClassMutation RequestClass = "mutation"
	// ClassGlobal passes the global barrier, which waits for every task's
	// work and holds back all that comes after it: reconcile, pause,
	// unpause; pausing begins that barrier (pause.go).
	ClassGlobal RequestClass = "global"
)

// NativeClasses is every host→extension method's request class: the one
// table the host's Classify and the extension's dispatch (dispatch.ts)
// read, so the two cannot disagree. It has NativeParams's keys exactly
// (TestNativeClassesCoverNativeParams; tsgen types it as a Record over
// NativeMethod, so tsc names a missing key too). An act batch is refined
// by its steps (Classify).
var NativeClasses = map[NativeMethod]RequestClass{
	NativeReconcile: ClassGlobal,
	NativePausing:   ClassGlobal,
	NativePause:     ClassGlobal,
	NativeUnpause:   ClassGlobal,
	// An open into a new window is its task's mutation too: it may only
	// make the task's first tab (spec 000), which the task's own order
	// decides, and it must not hold back other tasks' work (issue 10,
	// departing from DESIGN.md "Queues", which lists new_window among the
	// operations passing the global barrier).
	NativeOpen:     ClassMutation,
	NativeFinish:   ClassMutation,
	NativeAdopt:    ClassMutation,
	NativeAct:      ClassMutation,
	NativeSnapshot: ClassRead,
	NativeTabs:     ClassRead,
	NativeWait:     ClassRead,
	NativePing:     ClassRead,
	// A commit executes a page step: its task's mutation, like act.
	NativeCommit: ClassMutation,
	// A handoff writes only the extension's notice storage; it takes its
	// place among its task's reads and never holds back a mutation (spec
	// 001: notices never gate scheduling).
	NativeHandoff: ClassRead,
	// A credential fill writes into a page: its task's mutation.
	NativeCredentialFill: ClassMutation,
	// Developer mode can do anything to its tab: a mutation.
	NativeDeveloper: ClassMutation,
	// Profile work is browser-global (spec 001); the extension still
	// refuses it while paused (spec 000: profile operations respect Pause).
	NativeProfile: ClassGlobal,
}

// Classify is the host's classification of a native request: its
// method's NativeClasses entry, and for act, a read when every step's kind
// is one (StepRules). A method without an entry counts as a mutation, the
// safe side. The extension classifies again from the same tables
// (dispatch.ts).
func Classify(method string, params any) RequestClass {
	cls, ok := NativeClasses[NativeMethod(method)]
	if !ok {
		return ClassMutation
	}
	if method != NativeAct {
		return cls
	}
	p, ok := params.(ExtActParams)
	if !ok {
		return ClassMutation
	}
	for _, s := range p.Actions {
		if StepRules[s.Kind].Class != ClassRead {
			return ClassMutation
		}
	}
	return ClassRead
}

// NativeResponse answers a NativeRequest: exactly one of Result and Error.
type NativeResponse struct {
	Type   string `json:"type" ts:"\"response\""`
	ID     int64  `json:"id"`
	Result any    `json:"result,omitempty"`
	Error  *Error `json:"error,omitempty"`
}

// NativeEvent is an unsolicited extension→host notice.
type NativeEvent struct {
	Type   string `json:"type" ts:"\"event\""`
	Event  string `json:"event"`
	Params any    `json:"params"`
}

// ExtTab is a tab as the extension reads it from Chrome.
type ExtTab struct {
	TabID    int    `json:"tab_id"`
	WindowID int    `json:"window_id"`
	GroupID  int    `json:"group_id"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Route    Route  `json:"route"`
	Revision int64  `json:"revision"`
	Loading  bool   `json:"loading"`
}

// TaskLook is how a task's tab group looks in Chrome.
type TaskLook struct {
	TaskID string `json:"task_id"`
	Label  string `json:"label"`
	Color  string `json:"color"`
	// Developer: the task used Developer mode, so its groups' titles carry
	// DeveloperMarker after the label (developer.go).
	Developer bool `json:"developer,omitempty"`
}

// ExtOpenParams asks the extension to create one owned tab.
type ExtOpenParams struct {
	Task      TaskLook  `json:"task"`
	URL       string    `json:"url"`
	Placement Placement `json:"placement"`
	// LoadWaitMs bounds how long the extension waits for the tab to finish
	// loading before it answers with loading=true.
	LoadWaitMs int `json:"load_wait_ms"`
}

// ExtOpenResult is the created, grouped tab.
type ExtOpenResult struct {
	Tab ExtTab `json:"tab"`
}

// ExtTabsParams asks for the live state of a task's owned tabs.
type ExtTabsParams struct {
	TaskID string `json:"task_id"`
	TabIDs []int  `json:"tab_ids"`
}

// ExtTabsResult has the still-owned tabs and the ones found revoked.
type ExtTabsResult struct {
	Tabs    []ExtTab     `json:"tabs"`
	Revoked []Revocation `json:"revoked"`
}

// ExtFinishParams ends a task in Chrome: every owned tab is released and the
// task's groups removed; the tabs in Close are closed.
type ExtFinishParams struct {
	TaskID string `json:"task_id"`
	Close  []int  `json:"close"`
}

// ExtFinishResult says what happened.
type ExtFinishResult struct {
	Released []int `json:"released"`
	Closed   []int `json:"closed"`
}

// Revocation reports that a task lost a tab.
type Revocation struct {
	TaskID string       `json:"task_id"`
	TabID  int          `json:"tab_id"`
	Reason RevokeReason `json:"reason"`
}

// RevisionNotice reports a tab's new page revision.
type RevisionNotice struct {
	TabID    int   `json:"tab_id"`
	Revision int64 `json:"revision"`
}

// ReconcileTab is one tab the host believes is owned.
type ReconcileTab struct {
	TabID         int   `json:"tab_id"`
	GroupID       int   `json:"group_id"`
	RevisionFloor int64 `json:"revision_floor"`
}

// ReconcileTask is one task the host believes is active.
type ReconcileTask struct {
	Task TaskLook       `json:"task"`
	Tabs []ReconcileTab `json:"tabs"`
}

// ReconcileParams is the host's view, sent once after the handshake. The
// extension keeps only tabs that both sides agree on and Chrome confirms.
type ReconcileParams struct {
	Tasks []ReconcileTask `json:"tasks"`
}

// ReconcileResult lists what was kept, found and revoked.
type ReconcileResult struct {
	Kept    []ExtTab     `json:"kept"`
	Found   []FoundTab   `json:"found"`
	Revoked []Revocation `json:"revoked"`
}

// FoundTab is a tab the extension opened or adopted for a task the host
// listed, which the host did not list anywhere: the host that asked for it
// died before it recorded the tab. Chrome still shows it in the task's
// group; the host records it for the task. (A child is never found: the
// host grants one only while it holds the opener.)
type FoundTab struct {
	TaskID string `json:"task_id"`
	// Source is how the extension granted it: "created" or "adopted".
	Source string `json:"source"`
	Tab    ExtTab `json:"tab"`
}
