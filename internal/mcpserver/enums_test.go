package mcpserver

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

// Every enum in the tools' input schemas is a protocol list, in its
// order, and every field of an enum type has one (a browser_act wait
// step's state too, which a hand-kept enum map once missed).
func TestSchemaEnumsAreProtocolLists(t *testing.T) {
	got := map[string][]string{}
	for _, tool := range listTools(t, connect(t, socketPath(t))) {
		raw, _ := json.Marshal(tool.InputSchema)
		var tree any
		json.Unmarshal(raw, &tree)
		walkSchema(tree, "", func(path string, node map[string]any) {
			if values, ok := node["enum"].([]any); ok {
				for _, v := range values {
					got[tool.Name+":"+path] = append(got[tool.Name+":"+path], v.(string))
				}
			}
		})
	}
	kinds := slices.Sorted(maps.Keys(protocol.StepRules))
	want := map[string][]string{
		protocol.MethodOpen + ":/mode":                    strs(protocol.OpenModes),
		protocol.MethodOpen + ":/placement":               strs(protocol.Placements),
		protocol.MethodSnapshot + ":/mode":                strs(protocol.SnapshotModes),
		protocol.MethodSnapshot + ":/screenshot":          strs(protocol.ScreenshotKinds),
		protocol.MethodWait + ":/until":                   strs(protocol.WaitUntils),
		protocol.MethodWait + ":/state":                   strs(protocol.WaitStates),
		protocol.MethodAct + ":/actions/items/kind":       strs(kinds),
		protocol.MethodAct + ":/actions/items/position":   strs(protocol.DropPositions),
		protocol.MethodAct + ":/actions/items/wait/until": strs(protocol.WaitUntils),
		protocol.MethodAct + ":/actions/items/wait/state": strs(protocol.WaitStates),
		protocol.MethodHandoff + ":/action":               strs(protocol.HandoffActions),
		protocol.MethodHandoff + ":/reason":               strs(protocol.HandoffReasons),
		protocol.MethodCredentials + ":/action":           strs(protocol.CredentialActions),
		protocol.MethodCredentials + ":/field":            strs(protocol.CredentialFields),
		protocol.MethodProfile + ":/op":                   strs(slices.Sorted(maps.Keys(protocol.ProfileRules))),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("input schema enums (-protocol lists +schemas):\n%s", diff)
	}
}

// An input field of a named string type without its list in enumSchemas
// stops the adapter at start-up instead of going out without an enum.
func TestInputSchemaRefusesAnUnlistedEnum(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("inputSchema accepted an input with protocol.Route, which enumSchemas lacks")
		}
	}()
	type input struct {
		Steps []struct {
			Route *protocol.Route `json:"route"`
		} `json:"steps"`
	}
	inputSchema[input]()
}

func strs[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
