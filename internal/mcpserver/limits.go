package mcpserver

import "github.com/agenttab/agenttab/internal/corerpc"

// MaxMessage bounds one MCP message the adapter reads: a line on stdio, a
// request body over HTTP. It is not the limit agents meet in practice:
// corerpc.MaxLine is, checked on the Core request a tool call becomes, so
// that the refusal names the host's limit. MaxMessage only has to be large
// enough that every message whose Core request could fit reaches that
// check (4×: a client may escape what Go's encoder writes plainly, so the
// same value can be longer in the MCP message than in the Core one), and
// small enough that a runaway client cannot make the adapter buffer
// without end.
const MaxMessage = 4 * corerpc.MaxLine
