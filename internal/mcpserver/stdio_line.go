package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttab/agenttab/protocol"
)

// A line on stdio is one JSON-RPC message (MCP "stdio" transport: messages
// are delimited by newlines and contain none). The SDK's own stdio
// transport ends the session on the first line it cannot decode (go-sdk
// v1.8.0 ioConn: a decode error is a Read error, on which jsonrpc2 closes
// the connection), where JSON-RPC 2.0 §5.1 has the server answer with an
// error and go on. So lineTransport decodes each line here, with the
// SDK's own decoder, hands the SDK only the messages, and answers the rest
// itself.

// parsedLine is what one line holds.
type parsedLine struct {
	// msgs go to the SDK, in order.
	msgs []jsonrpc.Message
	// refusals are the adapter's own answers: errors for what could not be
	// decoded. For a batch they are members of the batch's answer.
	refusals []json.RawMessage
	// batch says the line was a JSON-RPC batch, answered as one array.
	batch bool
}

// parseLine decodes one line (without its newline). batches says whether
// the MCP version in use has JSON-RPC batches (those before
// batchlessVersion); an array is refused otherwise. A blank line holds
// nothing.
func parseLine(line []byte, batches bool) parsedLine {
	trimmed := bytes.Trim(line, jsonSpace)
	if len(trimmed) == 0 {
		return parsedLine{}
	}
	if r := unreadable(trimmed); r != nil {
		return refused(r)
	}
	switch {
	case trimmed[0] != '[':
		msg, r := decodeMessage(trimmed)
		if r != nil {
			return refused(r)
		}
		return parsedLine{msgs: []jsonrpc.Message{msg}}
	case !batches:
		return refused(refusal(nil, jsonrpc.CodeInvalidRequest, protocol.CodeInvalidRequest,
			"JSON-RPC batches are not part of MCP since version "+batchlessVersion))
	}
	var members []json.RawMessage
	if err := json.Unmarshal(trimmed, &members); err != nil || len(members) == 0 {
		return refused(refusal(nil, jsonrpc.CodeInvalidRequest, protocol.CodeInvalidRequest, "an empty batch"))
	}
	p := parsedLine{batch: true}
	seen := map[jsonrpc.ID]bool{}
	for _, m := range members {
		msg, r := decodeMessage(m)
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			// The batch's answer is assembled by id, so an id may occur
			// once (the SDK refuses a batch with a repeated id, too).
			if seen[req.ID] {
				msg, r = nil, refusal(m, jsonrpc.CodeInvalidRequest, protocol.CodeInvalidRequest, "the id occurs twice in the batch")
			}
			seen[req.ID] = true
		}
		if r != nil {
			p.refusals = append(p.refusals, r)
			continue
		}
		p.msgs = append(p.msgs, msg)
	}
	return p
}

// unreadable refuses text that is not one UTF-8 JSON value (a line on
// stdio, a request body over HTTP), with the JSON-RPC parse error; nil
// when it is one.
func unreadable(text []byte) json.RawMessage {
	switch {
	case !utf8.Valid(text):
		// JSON text exchanged between systems must be UTF-8 (RFC 8259
		// §8.1). Decoders would put U+FFFD where the agent's bytes were
		// (the SDK's does), and a fill would type other text than was
		// sent.
		return refusal(nil, jsonrpc.CodeParseError, protocol.CodeParseError, "the message is not UTF-8")
	case !json.Valid(text):
		return refusal(nil, jsonrpc.CodeParseError, protocol.CodeParseError, "the message is not one JSON value")
	}
	return nil
}

// jsonSpace is JSON's whitespace (RFC 8259 §2); other Unicode spaces are
// not JSON and are refused with the rest.
const jsonSpace = " \t\r\n"

// batchlessVersion is the MCP version that removed JSON-RPC batching
// (MCP 2025-06-18 changelog: "Remove support for JSON-RPC batching").
const batchlessVersion = "2025-06-18"

// decodeMessage decodes one JSON value with the SDK's decoder: the SDK
// gets the message its own transport would have made of it.
func decodeMessage(raw []byte) (jsonrpc.Message, json.RawMessage) {
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return nil, refusal(raw, jsonrpc.CodeInvalidRequest, protocol.CodeInvalidRequest, "not a JSON-RPC 2.0 message: "+err.Error())
	}
	return msg, nil
}

func refused(r json.RawMessage) parsedLine { return parsedLine{refusals: []json.RawMessage{r}} }

// refusal is a JSON-RPC error response to raw (nil when the line could
// not be read as JSON at all). Its id is raw's when raw has a valid one,
// and null otherwise (JSON-RPC 2.0 §5: null when the id could not be
// detected). The data is AgentTab's error shape, as on Core RPC.
func refusal(raw []byte, number int64, code protocol.ErrorCode, message string) json.RawMessage {
	e := protocol.Fail(code, message)
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", idOf(raw), struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    *protocol.Error `json:"data"`
	}{number, message, e}})
	if err != nil {
		panic(err) // only strings, numbers and valid JSON go in
	}
	return out
}

// idOf returns raw's id when it is a string or a number, else null.
func idOf(raw []byte) json.RawMessage {
	var env struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.ID) > 0 {
		var v any
		if json.Unmarshal(env.ID, &v) == nil {
			switch v.(type) {
			case string, float64:
				return env.ID
			}
		}
	}
	return json.RawMessage("null")
}

// tooLongRefusal answers a line corerpc.ReadLine skipped.
func tooLongRefusal(max int) json.RawMessage {
	return refusal(nil, jsonrpc.CodeParseError, protocol.CodeMessageTooBig,
		fmt.Sprintf("the line is longer than %d bytes, the most an MCP message to AgentTab may be; it was not read", max))
}
