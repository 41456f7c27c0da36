package protocol

// StandardTools are the Standard tools every adapter lists, in spec 000's
// order ("Standard mode exposes exactly these ten MCP tools"; an MCP
// server's tools/list may order them otherwise: the go-sdk sorts by name).
// browser_developer (MethodDeveloper) is not among them: it is listed only
// while the user's policy enables Developer mode. internal/mcpserver's
// registry is checked against this list (TestRegistryListsTheStandardTools),
// and the adapters' tool-count tests (e2e/tool_count_test.go, Pi, OMP)
// compare their tools/list with it.
var StandardTools = []string{
	MethodOpen,
	MethodSnapshot,
	MethodAct,
	MethodWait,
	MethodTabs,
	MethodHandoff,
	MethodCommit,
	MethodCredentials,
	MethodProfile,
	MethodFinish,
}
