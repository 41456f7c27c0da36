package protocol

// The popup's view of tasks and its End task button (issue 12, "Ending a
// task from the popup", where the spec is silent). The popup lists each
// task with its colour, tab count, whether its agent is connected now and
// when it last acted; End task releases the task's tabs, keeping or
// closing them as the user chooses, and finishes the task as browser_finish
// would, so no group is left behind. The extension asks the host (sent
// like NativeLocalFile): only the host knows connections and activity.

// Extension→host requests for the popup's task list.
const (
	// NativeTaskOverview: the host's tasks with their connection and
	// activity.
	NativeTaskOverview = "task_overview"
	// NativeEndTask: the user ended a task.
	NativeEndTask = "end_task"
)

// TaskOverview is one unfinished task as the popup shows it.
type TaskOverview struct {
	TaskID string `json:"task_id"`
	// Connected: an agent's connection holds the task now.
	Connected bool `json:"connected"`
	// IdleMs is the time since the task's last request (or since it was
	// made, when it has had none since the host started).
	IdleMs int64 `json:"idle_ms"`
}

// TaskOverviewResult lists the unfinished tasks.
type TaskOverviewResult struct {
	Tasks []TaskOverview `json:"tasks"`
}

// EndTaskParams name the task the user ended, and whether its tabs close.
type EndTaskParams struct {
	TaskID    string `json:"task_id"`
	CloseTabs bool   `json:"close_tabs"`
}

// EndTaskResult is what ending did (as FinishResult counts it).
type EndTaskResult struct {
	Released int `json:"released"`
	Closed   int `json:"closed"`
}

// CodeTaskEnded: the user ended this connection's task from the popup; its
// tabs are released. The connection's next browser call starts a new task.
const CodeTaskEnded ErrorCode = "task_ended"

// CodeTaskBusy: End task could not take the task in time because a call of
// its agent holds it (a wait can take 30 s); nothing was ended.
const CodeTaskBusy ErrorCode = "task_busy"
