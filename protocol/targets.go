package protocol

// NavigableSchemes are the URL schemes AgentTab navigates to, for
// browser_open and navigate steps: the host (internal/host/validate.go)
// and the extension (act/validate.ts) both read this one list.
// javascript:, data:, blob: and filesystem: are script or content
// injection, not navigation targets; file: is the local disk
// (localfiles.go). view-source: is admitted only around a target that is
// admitted itself. Browser-owned schemes open on the tab_only route.
var NavigableSchemes = []string{"http", "https", "about", "chrome", "chrome-extension", "chrome-untrusted", "devtools", "view-source"}

// MaxURLBytes bounds a navigation target (browser_open's url, a navigate
// step's url), checked by the host and again by the extension. Chrome
// itself refuses URLs over 2 MB; no legitimate agent target comes near
// this.
const MaxURLBytes = 32 << 10
