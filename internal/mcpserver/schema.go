package mcpserver

import (
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agenttab/agenttab/protocol"
)

// The tools' JSON Schemas, inferred from the Go types (so the structs stay
// the one source of truth) and then made plain enough for every MCP client:
//
//   - No type unions. jsonschema-go writes a pointer, slice or map field as
//     "type": ["null", X]; several clients (and the model APIs behind them)
//     reject type arrays, so each becomes X. In inputs an omitted field means
//     "none" already; in outputs toolResult drops null members instead.
//   - No composition at the root (anyOf, oneOf, if/then). The model APIs
//     that clients forward input schemas to refuse them at the top level, so
//     a conditional rule (browser_open's url is required for mode create) is
//     said in the field's description and checked by the host, not written
//     as if/then.
//   - An output schema that also admits a failure's structured content
//     (protocol.Error's fields): the TypeScript SDK's client validates
//     structuredContent against the output schema even when isError is set,
//     and would turn our recovery text into a bare -32602 otherwise.

// inputSchema infers T's input schema, made plain, with every field of an
// enum type restricted to its protocol list (enums.go).
func inputSchema[T any]() *jsonschema.Schema {
	if t, ok := unlistedEnum(reflect.TypeFor[T](), map[reflect.Type]bool{}); ok {
		panic("inputSchema: " + t.String() + " has no entry in enumSchemas (enums.go)") // fails at start-up in every test
	}
	return inferred[T](false, enumSchemas)
}

// inferred is T's schema with the null unions removed; for an output, a
// property that may be null is also no longer required (it is dropped).
// types gives the schemas of some types (jsonschema.ForOptions.TypeSchemas).
func inferred[T any](output bool, types map[reflect.Type]*jsonschema.Schema) *jsonschema.Schema {
	schema, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: types})
	if err != nil {
		panic(err) // a static type: fails at start-up in every test
	}
	plain(schema, output)
	return schema
}

// outputSchema describes a tool's structured content: T's fields on
// success, protocol.Error's when the call failed. It is one flat object
// (see above), so only the fields both have in common could be required:
// none are.
func outputSchema[T any]() *jsonschema.Schema {
	schema := inferred[T](true, nil)
	failure := inferred[protocol.Error](true, nil)
	for name, prop := range failure.Properties {
		if same, clash := schema.Properties[name]; clash {
			// browser_act's receipt has an outcome too, of the same type.
			if same.Type != prop.Type {
				panic("outputSchema: result field " + name + " clashes with a failure field")
			}
			continue
		}
		schema.Properties[name] = prop
	}
	schema.Required = nil
	schema.Description = "On success the result's fields; when isError is set, code, message, recovery and outcome instead (browser_act's failed batch keeps the receipt and sets error)."
	return schema
}

// plain rewrites every ["null", X] type in s to X, recursively. With
// output set, a property that was nullable leaves its parent's required
// list, because toolResult drops null members.
func plain(s *jsonschema.Schema, output bool) {
	if s == nil {
		return
	}
	for name, prop := range s.Properties {
		if nullable(prop) && output {
			s.Required = slices.DeleteFunc(s.Required, func(r string) bool { return r == name })
		}
		plain(prop, output)
	}
	if len(s.Types) > 0 {
		s.Types = slices.DeleteFunc(s.Types, func(t string) bool { return t == "null" })
		if len(s.Types) == 1 {
			s.Type, s.Types = s.Types[0], nil
		}
	}
	plain(s.Items, output)
	plain(s.AdditionalProperties, output)
	for _, d := range s.Defs {
		plain(d, output)
	}
}

func nullable(s *jsonschema.Schema) bool {
	return s != nil && (s.Type == "null" || slices.Contains(s.Types, "null"))
}
