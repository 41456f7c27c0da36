package mcpserver

import (
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agenttab/agenttab/protocol"
)

// enumSchemas gives every enum type a tool input carries its values, from
// protocol's one list of them (protocol/doc.go "Value lists"), never from
// a copy. jsonschema.For puts an entry wherever its type occurs, so
// browser_wait's until and a browser_act wait step's until are one list;
// inputSchema refuses an input whose enum type is missing here.
var enumSchemas = typeSchemas(
	enum(protocol.OpenModes),
	enum(protocol.Placements),
	enum(protocol.SnapshotModes),
	enum(protocol.ScreenshotKinds),
	// The step kinds are StepRules' keys, sorted so the schema is stable.
	enum(slices.Sorted(maps.Keys(protocol.StepRules))),
	enum(protocol.DropPositions),
	enum(protocol.WaitUntils),
	enum(protocol.WaitStates),
	enum(protocol.HandoffActions),
	enum(protocol.HandoffReasons),
	enum(protocol.CredentialActions),
	enum(protocol.CredentialFields),
	enum(protocol.DeveloperActions),
	// browser_profile's operations are ProfileRules' keys, sorted likewise.
	enum(slices.Sorted(maps.Keys(protocol.ProfileRules))),
)

// typeSchema is one type's schema.
type typeSchema struct {
	t reflect.Type
	s *jsonschema.Schema
}

// enum is the schema of T's values, in list's order.
func enum[T ~string](list []T) typeSchema {
	values := make([]any, len(list))
	for i, v := range list {
		values[i] = string(v)
	}
	return typeSchema{reflect.TypeFor[T](), &jsonschema.Schema{Type: "string", Enum: values}}
}

func typeSchemas(entries ...typeSchema) map[reflect.Type]*jsonschema.Schema {
	out := map[reflect.Type]*jsonschema.Schema{}
	for _, e := range entries {
		out[e.t] = e.s
	}
	return out
}

// unlistedEnum finds a named string type in t's fields (at any depth)
// that enumSchemas lacks: every such type in a tool input is one of
// protocol's enums.
func unlistedEnum(t reflect.Type, seen map[reflect.Type]bool) (reflect.Type, bool) {
	if seen[t] {
		return nil, false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String:
		_, listed := enumSchemas[t]
		return t, t.PkgPath() != "" && !listed
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return unlistedEnum(t.Elem(), seen)
	case reflect.Map:
		if u, ok := unlistedEnum(t.Key(), seen); ok {
			return u, true
		}
		return unlistedEnum(t.Elem(), seen)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.IsExported() {
				if u, ok := unlistedEnum(f.Type, seen); ok {
					return u, true
				}
			}
		}
	}
	return nil, false
}
