package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttab/agenttab/protocol"
)

// wireRefusal is a refusal as a client reads it.
type wireRefusal struct {
	JSONRPC string `json:"jsonrpc"`
	// ID is "null" for JSON null, and empty when the member is missing.
	ID    json.RawMessage `json:"id"`
	Error struct {
		Code    int64          `json:"code"`
		Message string         `json:"message"`
		Data    protocol.Error `json:"data"`
	} `json:"error"`
}

func decodeRefusal(t *testing.T, raw json.RawMessage) wireRefusal {
	t.Helper()
	var r wireRefusal
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("refusal %s: %v", raw, err)
	}
	if r.JSONRPC != "2.0" || len(r.ID) == 0 || r.Error.Message == "" || r.Error.Data.Code == "" ||
		r.Error.Data.Recovery == "" || r.Error.Data.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("malformed refusal %s", raw)
	}
	switch r.Error.Code {
	case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest:
	default:
		t.Fatalf("refusal %s: code %d is neither a parse error nor an invalid request", raw, r.Error.Code)
	}
	var id any
	if err := json.Unmarshal(r.ID, &id); err != nil {
		t.Fatalf("refusal %s: id: %v", raw, err)
	}
	switch id.(type) {
	case nil, string, float64:
	default:
		t.Fatalf("refusal %s: id %s is not null, a string or a number", raw, r.ID)
	}
	return r
}

// outcome summarises a parsedLine for comparison: the methods passed on,
// and each refusal's JSON-RPC code and id.
type lineOutcome struct {
	Methods  []string
	Refusals []string
	Batch    bool
}

func summarise(t *testing.T, p parsedLine) lineOutcome {
	t.Helper()
	var o lineOutcome
	o.Batch = p.batch
	for _, m := range p.msgs {
		switch m := m.(type) {
		case *jsonrpc.Request:
			o.Methods = append(o.Methods, m.Method)
		case *jsonrpc.Response:
			o.Methods = append(o.Methods, "(response)")
		}
	}
	for _, raw := range p.refusals {
		r := decodeRefusal(t, raw)
		o.Refusals = append(o.Refusals, string(r.ID)+" "+string(r.Error.Data.Code))
	}
	return o
}

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		line    string
		batches bool
		want    lineOutcome
	}{
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, false, lineOutcome{Methods: []string{"ping"}}},
		{"a request ending in CR", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r", false, lineOutcome{Methods: []string{"ping"}}},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, lineOutcome{Methods: []string{"notifications/initialized"}}},
		{"a response", `{"jsonrpc":"2.0","id":"s1","result":{}}`, false, lineOutcome{Methods: []string{"(response)"}}},
		{"a blank line", " \t\r", false, lineOutcome{}},
		{"plain text", "hello", false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"a no-break space before JSON", "\u00a0{}", false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"truncated", `{"jsonrpc":"2.0","id":1,"meth`, false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"two values", `{} {}`, false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":\"\xff\"}}", false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"NUL", "\x00", false, lineOutcome{Refusals: []string{"null parse_error"}}},
		{"a number", `42`, false, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"null", `null`, false, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"no version", `{"id":3,"method":"ping"}`, false, lineOutcome{Refusals: []string{"3 invalid_request"}}},
		{"a string id kept", `{"jsonrpc":"1.0","id":"x","method":"ping"}`, false, lineOutcome{Refusals: []string{`"x" invalid_request`}}},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, false, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"a boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, false, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"deeper than the SDK decodes", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"a":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`, false,
			lineOutcome{Refusals: []string{"4 invalid_request"}}},
		{"a batch where batches are gone", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, false, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"an empty batch", `[]`, true, lineOutcome{Refusals: []string{"null invalid_request"}}},
		{"a batch of numbers", `[1,2,3]`, true, lineOutcome{Batch: true, Refusals: []string{"null invalid_request", "null invalid_request", "null invalid_request"}}},
		{"a mixed batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},1,{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, true,
			lineOutcome{Batch: true, Methods: []string{"ping", "n"}, Refusals: []string{"null invalid_request", "1 invalid_request"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, summarise(t, parseLine([]byte(tc.line), tc.batches))); diff != "" {
				t.Errorf("parseLine(%q) (-want +got):\n%s", tc.line, diff)
			}
		})
	}
}

func FuzzParseLine(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_tabs","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"a","result":{"x":[1,2]}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[1,2,3]`, `42`, `null`, "\xff", "\x00", `{"id":{"a":1}}`, `[[[[]]]]`, `{"jsonrpc":"2.0","id":1e400,"method":"x"}`,
	} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, line []byte, batches bool) {
		p := parseLine(line, batches)
		for _, r := range p.refusals {
			decodeRefusal(t, r)
		}
		trimmed := bytes.Trim(line, jsonSpace)
		switch {
		case len(trimmed) == 0:
			if len(p.msgs)+len(p.refusals) != 0 {
				t.Fatalf("a blank line gave %+v", p)
			}
		case p.batch:
			var members []json.RawMessage
			if !batches || json.Unmarshal(trimmed, &members) != nil || len(members) != len(p.msgs)+len(p.refusals) {
				t.Fatalf("a batch of %d members gave %d messages and %d refusals (batches %v)", len(members), len(p.msgs), len(p.refusals), batches)
			}
		case len(p.msgs)+len(p.refusals) != 1:
			t.Fatalf("one line gave %d messages and %d refusals", len(p.msgs), len(p.refusals))
		}
		if len(p.msgs) > 0 && (!utf8.Valid(line) || !json.Valid(line)) {
			t.Fatalf("passed on messages from a line that is not UTF-8 JSON: %q", line)
		}
		if len(p.msgs) > 0 && !batches && trimmed[0] == '[' {
			t.Fatal("passed on a batch where batches are gone")
		}
	})
}
