package protocol

// The prefixes of the handles AgentTab itself makes: a tab handle
// (internal/store), a task id (internal/store), a stage id
// (internal/host), a handoff notice id (the extension's notices). One
// place for them, because an adapter's card (adapters/core/src/card.ts)
// shows a value as a handle only when it has one of these forms: it never
// shows what a page or the agent wrote.
const (
	HandlePrefixTab    = "tab_"
	HandlePrefixTask   = "task_"
	HandlePrefixStage  = "stg_"
	HandlePrefixNotice = "ntc_"
)

// HandlePrefixes are every handle prefix, for the card's check.
var HandlePrefixes = []string{HandlePrefixTab, HandlePrefixTask, HandlePrefixStage, HandlePrefixNotice}
