package protocol

import (
	"slices"
	"strings"
)

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

// Developer mode widens the agent's reach into its own tabs; it does not
// lift the user's managed limits (policy.json's origin lists, local_files
// and uploads.dlp_allowed_roots) nor reach the rest of the profile. A
// browser_developer command runs on the tab's own debugger session, the
// one where the origin guard holds Fetch.enable (background/origins/
// origin-guard.ts), so the commands below are refused, by the host before
// it asks the extension and by the extension before the debugger
// (DeveloperRefused). Everything else is the page's own reach: Runtime.*
// (evaluate) is the page's JavaScript, whose fetch() may go to any origin
// as the page itself may; Page.navigate and history moves stay under the
// guard, which pauses their document request in Fetch, or sees them in
// webNavigation and stops them late, as any navigation the page starts.
// Page.createIsolatedWorld stays too: observed in Chromium 156 (e2e
// probe), a world made with grantUniveralAccess still fails fetch() of
// another origin or of a file: URL under an extension's debugger.

// DeveloperRefusedDomains are DevTools domains browser_developer refuses
// whole: other targets (Target); the browser (Browser, SystemInfo, and
// Tracing, which records every process); the guard's own interception
// (Fetch: Fetch.enable, disable or an answer to a paused request would
// replace or release the guard's); storage addressed by any origin
// (Storage, IndexedDB, CacheStorage, ServiceWorker), where the page's own
// is reachable by evaluate.
var DeveloperRefusedDomains = []string{"Target", "Browser", "SystemInfo", "Tracing", "Fetch", "Storage", "IndexedDB", "CacheStorage", "ServiceWorker"}

// DeveloperRefusedMethods are single commands browser_developer refuses:
//   - Page.setPrerenderingAllowed: the guard turns prerendering off, as a
//     prerendered page is shown without a request its Fetch would pause;
//   - Network.setRequestInterception, Network.continueInterceptedRequest:
//     the older interception, which can answer or rewrite requests too;
//   - Network.loadNetworkResource: a load by the browser, file: too,
//     outside the guard and the local-files check;
//   - DOM.setFileInputFiles, Input.dispatchDragEvent (its data carries
//     file paths): a local file into the page around
//     uploads.dlp_allowed_roots (upload_file is the way);
//   - Page.setDownloadBehavior: downloads into any folder;
//   - Network cookie and cache commands: they take any URL or domain, or
//     the whole profile, and getCookies answers HttpOnly cookies the
//     page's scripts cannot read.
var DeveloperRefusedMethods = []string{
	"Page.setPrerenderingAllowed",
	"Network.setRequestInterception", "Network.continueInterceptedRequest",
	"Network.loadNetworkResource",
	"DOM.setFileInputFiles", "Input.dispatchDragEvent",
	"Page.setDownloadBehavior",
	"Network.getCookies", "Network.getAllCookies", "Network.setCookie", "Network.setCookies",
	"Network.deleteCookies", "Network.clearBrowserCookies", "Network.clearBrowserCache",
}

// DeveloperRefused says whether browser_developer refuses a DevTools
// method (Domain.method): its domain or the method itself is listed. The
// extension keeps the same rule over the generated lists (developer.ts).
func DeveloperRefused(method string) bool {
	domain, _, _ := strings.Cut(method, ".")
	return slices.Contains(DeveloperRefusedDomains, domain) || slices.Contains(DeveloperRefusedMethods, method)
}

// DeveloperCommandMs bounds one command or evaluation in the extension (an
// awaited promise may take a while, but not forever); the host waits that
// long plus a margin for the extension's answer.
const DeveloperCommandMs = 30_000

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
