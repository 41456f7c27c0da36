package mcpserver

import (
	"bytes"
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
	raw, perr := encodeResult(v)
	if perr != nil {
		return toolResult(nil, perr)
	}
	return &mcp.CallToolResult{StructuredContent: raw, Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}}
}

// encodeResult is a result's JSON as the structured content carries it:
// one line (encoding/json escapes newlines in strings), nulls dropped.
func encodeResult(v any) (json.RawMessage, *protocol.Error) {
	raw, err := json.Marshal(v)
	if err == nil {
		raw, err = withoutNulls(raw)
	}
	if err != nil {
		return nil, protocol.FailAs(protocol.CodeInternal, protocol.OutcomeUnknown, "encoding the result: "+err.Error())
	}
	return raw, nil
}

// withoutNulls drops the object members whose value is null (a nil slice,
// map or pointer): the output schemas have no null types (schema.go), so
// an absent member is how a result says "none".
func withoutNulls(raw []byte) ([]byte, error) {
	if !bytes.Contains(raw, []byte("null")) {
		return raw, nil // the common case: no decoding
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // int64 revisions and ids stay exact
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(dropNulls(v))
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = dropNulls(e)
		}
	}
	return v
}
