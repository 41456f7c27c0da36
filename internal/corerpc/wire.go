package corerpc

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agenttab/agenttab/protocol"
)

// MaxLine bounds one Core RPC message. No method's parameters come close; a
// longer line is refused and the connection closed, because a line-framed
// stream cannot be resynchronised inside a line.
const MaxLine = 4 << 20

// Request is one decoded JSON-RPC 2.0 request.
type Request struct {
	// ID is the raw JSON id (a string or a number); nil for a notification.
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	// Seq is the request's place among its connection's requests (1, 2,
	// …), given as the line is read. Each request is handled in its own
	// goroutine, so this is the only record of the order the client sent
	// them in; the host admits a task's work in it (issue 10).
	Seq uint64
}

type envelope struct {
	JSONRPC *string          `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id"`
	Method  *string          `json:"method"`
	Params  json.RawMessage  `json:"params"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
	// Capability is a newly issued resume capability (WithCapability).
	Capability string `json:"capability,omitempty"`
}

type wireError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    *protocol.Error `json:"data,omitempty"`
}

// decode validates one line as a JSON-RPC 2.0 request. On failure it returns
// the id it could recover (or JSON null) and a protocol error.
func decode(line []byte) (*Request, json.RawMessage, *protocol.Error) {
	null := json.RawMessage("null")
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil, null, protocol.Fail(protocol.CodeInvalidRequest, "JSON-RPC batches are not supported: send one request object per line")
	}
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&env); err != nil || dec.More() {
		return nil, null, protocol.Fail(protocol.CodeParseError, "the line is not one JSON object")
	}
	id := null
	if env.ID != nil {
		id = *env.ID
		if !validID(id) {
			return nil, null, invalidRequest("id must be a string or a number")
		}
	}
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return nil, id, invalidRequest(`"jsonrpc" must be "2.0"`)
	}
	if env.Method == nil || *env.Method == "" {
		return nil, id, invalidRequest(`"method" must be a non-empty string`)
	}
	params := bytes.TrimSpace(env.Params)
	if len(params) == 0 || bytes.Equal(params, []byte("null")) {
		params = []byte("{}")
	}
	if params[0] != '{' {
		return nil, id, protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			`"params" must be an object`, "Pass named parameters as a JSON object.")
	}
	req := &Request{Method: *env.Method, Params: params}
	if env.ID != nil {
		req.ID = id
	}
	return req, id, nil
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
	return false
}

func invalidRequest(msg string) *protocol.Error {
	return protocol.Fail(protocol.CodeInvalidRequest, msg)
}

// rpcNumber maps a stable code to the JSON-RPC error number.
func rpcNumber(code protocol.ErrorCode) int {
	switch code {
	case protocol.CodeParseError, protocol.CodeMessageTooBig:
		return protocol.RPCParseError
	case protocol.CodeInvalidRequest:
		return protocol.RPCInvalidRequest
	case protocol.CodeUnknownMethod:
		return protocol.RPCMethodNotFound
	case protocol.CodeInvalidParams, protocol.CodeInvalidURL:
		return protocol.RPCInvalidParams
	case protocol.CodeInternal:
		return protocol.RPCInternalError
	}
	return protocol.RPCToolError
}

func errorResponse(id json.RawMessage, e *protocol.Error) response {
	return response{JSONRPC: "2.0", ID: id, Error: &wireError{Code: rpcNumber(e.Code), Message: e.Message, Data: e}}
}

// DecodeParams strictly decodes params into v: unknown fields and wrong
// types are refused with invalid_params naming the problem.
func DecodeParams(params json.RawMessage, v any) *protocol.Error {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return protocol.Fail(protocol.CodeInvalidParams, fmt.Sprintf("invalid params: %v", err))
	}
	return nil
}
