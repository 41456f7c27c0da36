package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// toolResult turns a Core answer into an MCP tool result: structured
// content for programs and the same JSON as text for models. Failures are
// results with isError, a code and recovery text, never protocol errors, so
// the model can read them and recover.
func toolResult(v any, perr *protocol.Error) *mcp.CallToolResult {
	if perr != nil {
		text := string(perr.Code) + ": " + perr.Message + "\nRecovery: " + perr.Recovery + "\nOutcome: " + string(perr.Outcome)
		return &mcp.CallToolResult{IsError: true, StructuredContent: perr, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return toolResult(nil, protocol.NewError(protocol.CodeInternal, protocol.OutcomeUnknown, "encoding the result: "+err.Error(), "Retry with browser_tabs."))
	}
	return &mcp.CallToolResult{StructuredContent: json.RawMessage(raw), Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}}
}
