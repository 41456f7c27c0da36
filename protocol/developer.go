package protocol

// Developer mode (spec 000: "Developer mode additionally exposes
// browser_developer. It is disabled by default in the host's local
// managed policy and is visibly marked on a task."). browser_developer
// sends raw DevTools commands or evaluates JavaScript in the page, on tabs
// the task owns only, and only while policy.json's developer_mode.enabled
// is true. A task that used it carries a marker in its tab group's title
// and in the popup.

// MethodDeveloper is browser_developer's Core method.
const MethodDeveloper = "browser_developer"

// NativeDeveloper runs one Developer-mode request on an owned tab.
const NativeDeveloper = "developer"

// DeveloperAction is what a browser_developer call does.
type DeveloperAction string

const (
	// DeveloperCDP sends one DevTools protocol command to the tab.
	DeveloperCDP DeveloperAction = "cdp"
	// DeveloperEvaluate evaluates an expression in the page's main world.
	DeveloperEvaluate DeveloperAction = "evaluate"
)

// DeveloperActions lists every DeveloperAction.
var DeveloperActions = []DeveloperAction{DeveloperCDP, DeveloperEvaluate}

// DeveloperMarker is appended to a task's tab group title once the task
// used Developer mode.
const DeveloperMarker = " [dev]"

// DeveloperRefusedDomains are DevTools domains browser_developer refuses:
// they address other targets (Target) or the browser as a whole (Browser),
// not the one owned tab the call names.
var DeveloperRefusedDomains = []string{"Target", "Browser"}

// MaxDeveloperInput bounds a call's expression, and its params as JSON, in
// bytes.
const MaxDeveloperInput = 64 << 10

// MaxDeveloperResult bounds the JSON of a command's or expression's result,
// in bytes: a larger one is answered message_too_large (it would crowd the
// agent's context, and the Core line is 4 MiB).
const MaxDeveloperResult = 1 << 20

// CodeDeveloperModeDisabled: policy.json does not enable Developer mode.
const CodeDeveloperModeDisabled ErrorCode = "developer_mode_disabled"

// DeveloperParams are browser_developer's arguments: cdp needs Method
// (Params optional, a JSON object); evaluate needs Expression.
type DeveloperParams struct {
	Tab            string          `json:"tab"`
	Action         DeveloperAction `json:"action"`
	Method         string          `json:"method,omitempty"`
	Params         map[string]any  `json:"params,omitempty"`
	Expression     string          `json:"expression,omitempty"`
	IdempotencyKey string          `json:"idempotency_key,omitempty"`
}

// DeveloperResult is the command's or the expression's JSON result.
type DeveloperResult struct {
	Tab     string  `json:"tab"`
	Result  any     `json:"result"`
	Outcome Outcome `json:"outcome"`
	Replay  bool    `json:"replay,omitempty"`
}

// ExtDeveloperParams is the call as the host passes it on.
type ExtDeveloperParams struct {
	TaskID     string          `json:"task_id"`
	TabID      int             `json:"tab_id"`
	Action     DeveloperAction `json:"action"`
	Method     string          `json:"method,omitempty"`
	Params     map[string]any  `json:"params,omitempty"`
	Expression string          `json:"expression,omitempty"`
}

// ExtDeveloperResult is the extension's answer.
type ExtDeveloperResult struct {
	Result any `json:"result"`
}
