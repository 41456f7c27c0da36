package protocol

// Local files. Source of truth: issue 9 ("Any local file can be read
// through a tab"): a file: page shows the user's disk, and it can embed or
// link to any other file, AgentTab's own state directory included (resume
// capabilities, the HTTP bearer token). So AgentTab opens a local file
// only inside a folder the user admits in policy.json
// (local_files.allowed_roots), and never one in its state directory. The
// host decides every file: URL, because only it can resolve the symlinks
// that say where a path leads: explicit targets before anything runs, and
// every file: request of an owned tab's page (document, frame, script,
// stylesheet, image) when the extension asks it (NativeLocalFile). The
// extension stops what the host refuses, and does no page work on a tab
// whose file: page was not checked so as it loaded.

// CodeLocalFileDenied: the target is a local file the policy does not
// admit (a file: URL in any spelling, or view-source: of one); outcome
// not_started unless a navigation was stopped after its step's input
// went out.
const CodeLocalFileDenied ErrorCode = "local_file_denied"

// Refusal texts the host and the extension both give. They never hold the
// path: the agent named it, and a path through a symlink says more than
// the agent should learn of the user's disk.
const (
	// LocalFileNoRoots: policy.json admits no folder.
	LocalFileNoRoots = "it is a local file (file:), and the user's policy admits no local folder"
	// LocalFileViewSource: view-source: of a local file is never opened.
	LocalFileViewSource = "it is view-source: of a local file, which AgentTab never opens"
	// LocalFilePopup: a popup toward a local file is not opened (the
	// window.open trap decides without the host).
	LocalFilePopup = "it is a local file, which AgentTab opens only as the target of browser_open or a navigate step, or as a page a task's tab is led to"
	// LocalFileUnchecked: page work on a tab whose local page was not
	// checked as it loaded (no debugger on the tab from before its load:
	// the scripting route, or an attachment Chrome took away meanwhile).
	LocalFileUnchecked = "the tab shows a local file whose loads AgentTab could not check as they happened (that needs its debugger on the tab from before the page loaded); reload the page, or open it again with browser_open"
)

// NativeLocalFile is the one extension→host request: may this file: URL
// load? The extension sends it as a NativeRequest (its ids count apart
// from the host's) for every file: request an owned tab's page makes; the
// host answers with a NativeResponse of the same id, carrying
// LocalFileResult, or an Error with CodeLocalFileDenied.
const NativeLocalFile = "local_file"

// LocalFileParams names the file: URL as Chrome requests it.
type LocalFileParams struct {
	URL string `json:"url"`
}

// LocalFileResult admits the URL.
type LocalFileResult struct {
	Admitted bool `json:"admitted"`
}
