package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// handler is a tool's typed handler. The structured content is in the
// result (toolResult); the middle value is unused, as with the go-sdk's
// ToolHandlerFor[In, any].
type handler[In any] func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, any, error)

// addTool registers a tool whose arguments are checked against its input
// schema here rather than by the go-sdk's mcp.AddTool, which (v1.8.0)
// answers a schema failure with a bare isError text ("validating
// \"arguments\": …") that names a schema path, no code and no recovery.
// Here it is a tool result like every other failure: invalid_params,
// not_started, the field at fault and what to do. The output schema is set
// from Out (schema.go).
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h handler[In]) {
	tool := *t
	in, ok := tool.InputSchema.(*jsonschema.Schema)
	if !ok {
		in = inputSchema[In]()
		tool.InputSchema = in
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("addTool %s: %v", t.Name, err)) // a static schema: fails in every test
	}
	tool.OutputSchema = outputSchema[Out]()
	srv.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.Arguments
		var args any = map[string]any{}
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &args); err != nil {
				return toolResult(nil, invalidArgs(t.Name, "", "the arguments are not JSON: "+err.Error())), nil
			}
		}
		if err := resolved.Validate(args); err != nil {
			field, detail := fault(in, args, "")
			return toolResult(nil, invalidArgs(t.Name, field, detail)), nil
		}
		var typed In
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &typed); err != nil {
				return toolResult(nil, invalidArgs(t.Name, "", err.Error())), nil
			}
		}
		res, _, err := h(ctx, req, typed)
		if err != nil {
			return toolResult(nil, protocol.FailAs(protocol.CodeInternal, protocol.OutcomeUnknown, err.Error())), nil
		}
		return res, nil
	})
}

// invalidArgs is the failure for arguments the schema refuses: nothing was
// sent to the host.
func invalidArgs(tool, field, detail string) *protocol.Error {
	if field == "" {
		return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
			"the arguments: "+detail,
			"Pass the arguments as one JSON object with the fields in "+tool+"'s input schema, then call it again.")
	}
	return protocol.NewError(protocol.CodeInvalidParams, protocol.OutcomeNotStarted,
		field+": "+detail,
		"Fix "+field+" as "+tool+"'s input schema says (its type, allowed values and required fields), then call it again; nothing was done.")
}

// maxDetail bounds the validator's text in a message: it quotes the value,
// which may be long.
const maxDetail = 300

// fault finds the first value in v that s refuses, as a path such as
// actions[2].kind ("" for the arguments as a whole), and says what is
// wrong with it. jsonschema-go's own error names the schema path, not the
// value's (no array index), so the walk validates node by node; it runs
// only after the whole failed.
func fault(s *jsonschema.Schema, v any, path string) (field, detail string) {
	err := validate(s, v)
	if err == nil {
		return "", ""
	}
	switch v := v.(type) {
	case map[string]any:
		for _, name := range s.Required {
			if _, ok := v[name]; !ok {
				return join(path, name), "missing, and it is required"
			}
		}
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			prop, known := s.Properties[name]
			if !known {
				if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
					return join(path, name), "not a field this tool takes"
				}
				continue
			}
			if f, d := fault(prop, v[name], join(path, name)); d != "" {
				return f, d
			}
		}
	case []any:
		if s.Items != nil {
			for i, item := range v {
				if f, d := fault(s.Items, item, fmt.Sprintf("%s[%d]", path, i)); d != "" {
					return f, d
				}
			}
		}
	}
	return path, leafDetail(err)
}

// validate checks v against s alone (a subschema resolved on its own: the
// inferred schemas have no $ref).
func validate(s *jsonschema.Schema, v any) error {
	r, err := s.CloneSchemas().Resolve(nil)
	if err != nil {
		return err
	}
	return r.Validate(v)
}

// leafDetail keeps the innermost part of a jsonschema-go error
// ("validating root: validating /properties/x: type: …" → "type: …").
func leafDetail(err error) string {
	d := err.Error()
	for strings.HasPrefix(d, "validating ") {
		i := strings.Index(d, ": ")
		if i < 0 {
			break
		}
		d = d[i+2:]
	}
	if len(d) > maxDetail {
		d = d[:maxDetail] + "…"
	}
	return d
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
