package protocol

// Local files. Source of truth: issue 9 ("Any local file can be read
// through a tab"): a file: page shows the user's disk, AgentTab's own state
// directory included (resume capabilities, the HTTP bearer token), so
// AgentTab opens no local file for an agent. The host refuses explicit
// targets; the extension refuses them again as Chrome reads them, stops
// the navigations an owned tab makes to one, and does no page work on a
// tab that shows one.

// CodeLocalFileDenied: the target is a local file (a file: URL in any
// spelling, or view-source: of one); outcome not_started unless a
// navigation was stopped after its step's input went out.
const CodeLocalFileDenied ErrorCode = "local_file_denied"

// RecoveryLocalFileDenied is the same from the host and the extension. It
// names only what works in this build: there is no policy key that admits
// local files.
const RecoveryLocalFileDenied = "AgentTab never opens local files (file: URLs). To show a local page, serve its folder over HTTP (for example `python3 -m http.server 8000 --bind 127.0.0.1` in that folder) and open http://127.0.0.1:8000/ instead."
