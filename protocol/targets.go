package protocol

// NavigableSchemes are the URL schemes AgentTab navigates to, for
// browser_open and navigate steps, separated by spaces: the host
// (internal/host/validate.go) and the extension (act/validate.ts) both
// read this one list. javascript:, data:, blob: and filesystem: are script
// or content injection, not navigation targets; file: is the local disk
// (localfiles.go). view-source: is admitted only around a target that is
// admitted itself. Browser-owned schemes open on the tab_only route.
const NavigableSchemes = "http https about chrome chrome-extension chrome-untrusted devtools view-source"
