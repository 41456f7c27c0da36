package protocol

// CodeTooManyTasks: the host already keeps as many detached tasks (whose
// connection closed without browser_finish, kept resumable) as it admits,
// and every one of them owns tabs, so none can be finished early; no task
// was created and nothing ran. The bound is internal/host's
// (detached.go).
const CodeTooManyTasks ErrorCode = "too_many_tasks"

// DetachedTaskResumableMs is how long a task whose connection closed
// without browser_finish stays resumable (DESIGN.md "Tasks": 24 hours);
// the host finishes it then (internal/host, detached.go), and adapters
// derive from it when their kept files are useless (statedir's
// AdapterFilesKept).
const DetachedTaskResumableMs = 24 * 60 * 60 * 1000
