package protocol

// Core RPC is JSON-RPC 2.0, one JSON object per line, on STATE/core.sock (a
// user-only named pipe on Windows). Method names equal the MCP tool names so
// that an adapter maps a tool to a method without a table.
const (
	// MethodHello records client metadata on the connection. It creates no
	// task and grants nothing.
	MethodHello = "hello"
	// MethodStatus reports the lifecycle and the tasks. It creates no task.
	MethodStatus = "status"

	// MethodResume asks, before any browser work on a connection, for the
	// task a resume capability names; see ResumeParams.
	MethodResume = "resume"
	// MethodCapabilityConfirm says the client has durably stored the
	// capability it was last given; until then the host admits no other
	// request on the connection (spec 000: persist-then-confirm).
	MethodCapabilityConfirm = "capability_confirm"

	MethodOpen   = "browser_open"
	MethodTabs   = "browser_tabs"
	MethodFinish = "browser_finish"
)

// JSON-RPC 2.0 error numbers. The stable, documented code is the string in
// the error's data (Error.Code); these numbers only satisfy JSON-RPC.
const (
	RPCParseError     = -32700
	RPCInvalidRequest = -32600
	RPCMethodNotFound = -32601
	RPCInvalidParams  = -32602
	RPCInternalError  = -32603
	// RPCToolError marks a failure of browser work; data is an Error.
	RPCToolError = -32000
)

// Resume capabilities (spec 000 and 001). A capability is a 256-bit random
// bearer secret, base64url without padding. It never travels in a result:
// the host puts a newly issued one in the JSON-RPC response envelope
// ("capability", beside "result" or "error") of the request that made the
// task, or of a successful resume, and the client stores it durably and
// calls capability_confirm before anything else.

// ResumeParams carries the capability the client kept.
type ResumeParams struct {
	Capability string `json:"capability"`
}

// ResumeResult says whether the connection now serves the capability's
// task. When it does not (an unknown, replaced or finished capability),
// the connection's first browser request creates a new task: never
// another agent's.
type ResumeResult struct {
	Resumed bool     `json:"resumed"`
	Task    *TaskRef `json:"task,omitempty"`
}

// CapabilityConfirmResult acknowledges capability_confirm.
type CapabilityConfirmResult struct {
	Confirmed bool `json:"confirmed"`
}

// HelloParams is client metadata. conversation_id is metadata only (spec
// 001): it never selects or authorizes a task.
type HelloParams struct {
	ClientName     string `json:"client_name,omitempty"`
	ClientVersion  string `json:"client_version,omitempty"`
	ConversationID string `json:"conversation_id,omitempty"`
}

// HelloResult names the connection the host assigned.
type HelloResult struct {
	ConnectionID    string    `json:"connection_id"`
	ProtocolVersion int       `json:"protocol_version"`
	HostVersion     string    `json:"host_version"`
	Lifecycle       Lifecycle `json:"lifecycle"`
	// DeveloperMode: the user's policy enables Developer mode, so an
	// adapter lists browser_developer (developer.go).
	DeveloperMode bool `json:"developer_mode,omitempty"`
}

// StatusResult is what `agenttab status` prints. It never carries page URLs
// or titles: status is readable by any local client of the same user, and
// one task's pages are not another task's business.
type StatusResult struct {
	Lifecycle        Lifecycle `json:"lifecycle"`
	ProtocolVersion  int       `json:"protocol_version"`
	HostVersion      string    `json:"host_version"`
	ExtensionID      string    `json:"extension_id,omitempty"`
	ExtensionVersion string    `json:"extension_version,omitempty"`
	ConnectionID     string    `json:"connection_id"`
	// TaskID is the calling connection's task, when it has one.
	TaskID string       `json:"task_id,omitempty"`
	Tasks  []TaskStatus `json:"tasks"`
	// PauseReason says who paused, while paused or pausing.
	PauseReason PauseReason `json:"pause_reason,omitempty"`
	// DeveloperMode: the user's policy enables Developer mode.
	DeveloperMode bool `json:"developer_mode"`
}

// TaskStatus summarises one active task.
type TaskStatus struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Color     string `json:"color"`
	Attached  bool   `json:"attached"`
	OwnedTabs int    `json:"owned_tabs"`
	// Developer: the task used Developer mode.
	Developer bool `json:"developer,omitempty"`
}

// TaskRef names the caller's task in a result.
type TaskRef struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// TabInfo is one owned tab as an agent sees it. Tab is an opaque handle,
// never a Chrome tab id.
type TabInfo struct {
	Tab             string `json:"tab"`
	URL             string `json:"url"`
	Title           string `json:"title"`
	AutomationRoute Route  `json:"automation_route"`
	PageRevision    int64  `json:"page_revision"`
	Loading         bool   `json:"loading"`
}

// OpenParams are browser_open's arguments.
type OpenParams struct {
	URL            string    `json:"url,omitempty"`
	Mode           OpenMode  `json:"mode"`
	Placement      Placement `json:"placement,omitempty"`
	IdempotencyKey string    `json:"idempotency_key,omitempty"`
	// TimeoutMs is how long adopt_active waits for the user: 1 to
	// MaxAdoptTimeoutMs, DefaultAdoptTimeoutMs when absent. A pointer, so
	// that an explicit 0 is refused instead of read as the default.
	TimeoutMs *int `json:"timeout_ms,omitempty"`
}

// OpenResult reports the created tab.
type OpenResult struct {
	Task      TaskRef   `json:"task"`
	Tab       TabInfo   `json:"tab"`
	Placement Placement `json:"placement"`
	Outcome   Outcome   `json:"outcome"`
	Replay    bool      `json:"replay,omitempty"`
}

// TabsParams are browser_tabs's arguments: with Tab, only that tab (which
// fails not_owned when the task no longer owns it).
type TabsParams struct {
	Tab string `json:"tab,omitempty"`
}

// TabsResult lists the task's owned tabs.
type TabsResult struct {
	Task    TaskRef   `json:"task"`
	Tabs    []TabInfo `json:"tabs"`
	Outcome Outcome   `json:"outcome"`
}

// FinishParams are browser_finish's arguments.
type FinishParams struct {
	CloseTabs      bool   `json:"close_tabs,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// FinishResult reports what finishing did.
type FinishResult struct {
	Task     TaskRef `json:"task"`
	Released int     `json:"released"`
	Closed   int     `json:"closed"`
	Outcome  Outcome `json:"outcome"`
	Replay   bool    `json:"replay,omitempty"`
}
