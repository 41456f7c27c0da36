package protocol

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every StepKind constant has a rule, and the rule's values are ones the
// protocol declares, so a kind cannot be added without saying what it takes.
func TestEveryStepKindHasARule(t *testing.T) {
	kinds := declared[StepKind](t, "StepKind")
	if len(kinds) != len(StepRules) {
		t.Errorf("%d StepKind constants, %d rules", len(kinds), len(StepRules))
	}
	fields := map[StepField]bool{}
	for _, f := range declared[StepField](t, "StepField") {
		fields[f] = true
	}
	routes := []string{RouteDebugger, RouteScripting}
	for name, kind := range kinds {
		rule, ok := StepRules[kind]
		if !ok {
			t.Errorf("%s (%s) has no entry in StepRules (steps.go)", name, kind)
			continue
		}
		if !slices.Contains(slices.Collect(maps.Values(declared[StepRefUse](t, "StepRefUse"))), rule.Ref) ||
			!slices.Contains(slices.Collect(maps.Values(declared[StepNavigates](t, "StepNavigates"))), rule.Navigates) ||
			(rule.Class != ClassRead && rule.Class != ClassMutation) {
			t.Errorf("%s: rule %+v has a value the protocol does not declare", kind, rule)
		}
		for _, f := range slices.Concat(rule.Needs, rule.Takes) {
			if !fields[f] {
				t.Errorf("%s: %q is not a StepField", kind, f)
			}
		}
		for _, r := range rule.Routes {
			if !slices.Contains(routes, r) {
				t.Errorf("%s: route %q is not a page route", kind, r)
			}
		}
	}
}

// The StepField constants are exactly Step's json fields besides kind and
// ref, so a field added to Step must be given to the kinds that take it.
func TestStepFieldsAreStepsFields(t *testing.T) {
	want := map[StepField]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Step]()) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "kind" && name != "ref" {
			want[StepField(name)] = true
		}
	}
	got := map[StepField]bool{}
	for _, f := range declared[StepField](t, "StepField") {
		got[f] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("StepField constants %v, Step's fields %v", got, want)
	}
}

func TestStepProblem(t *testing.T) {
	accept := true
	for _, tc := range []struct {
		step Step
		want string // a word of the problem; "" for none
	}{
		{Step{Kind: StepClick, Ref: "e1"}, ""},
		{Step{Kind: StepScroll, DeltaY: 100}, ""},
		{Step{Kind: StepScroll, Ref: "e9"}, ""},
		{Step{Kind: StepPress, Keys: "Control+A", Ref: "e3"}, ""},
		{Step{Kind: StepFill, Ref: "e1"}, ""},
		{Step{Kind: StepDialog, Accept: &accept, PromptText: "x"}, ""},
		{Step{Kind: StepWait, Wait: &WaitCondition{Until: WaitLoad}}, ""},
		{Step{Kind: "teleport"}, "not a step kind"},
		{Step{Kind: StepScroll}, "delta"},
		{Step{Kind: StepClick}, "needs a ref"},
		{Step{Kind: StepClick, Ref: "e01"}, "not a ref"},
		{Step{Kind: StepDrag, Ref: "e1", ToRef: "x"}, "to_ref"},
		{Step{Kind: StepDrag, Ref: "e1"}, "needs to_ref"},
		{Step{Kind: StepDrag, Ref: "e1", ToRef: "e2", Position: DropAfter}, ""},
		{Step{Kind: StepDrag, Ref: "e1", ToRef: "e2", Position: "below"}, `position "below" is not one of ["center" "before" "after"]`},
		{Step{Kind: StepClick, Ref: "e1", Position: DropBefore}, "takes no position"},
		{Step{Kind: StepType, Ref: "e1"}, "needs text"},
		{Step{Kind: StepReload, Ref: "e1"}, "takes no ref"},
		{Step{Kind: StepClick, Ref: "e1", Wait: &WaitCondition{Until: WaitLoad}}, "takes no wait"},
		{Step{Kind: StepPress, Keys: "Control+Nope"}, "not a key name"},
		{Step{Kind: StepDialog}, "needs accept"},
	} {
		got := StepProblem(tc.step)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.step, got, tc.want)
		}
	}
}

func TestChordsOfTheSharedTable(t *testing.T) {
	raw, err := os.ReadFile("testdata/chords.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Valid, Invalid []string }
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	for _, k := range table.Valid {
		if p := ChordProblem(k); p != "" {
			t.Errorf("%q: %s", k, p)
		}
	}
	for _, k := range table.Invalid {
		if ChordProblem(k) == "" {
			t.Errorf("%q passed", k)
		}
	}
}

// Every alias stands for a key of the host's key lists (which
// TestEnumListsAreWhole keeps whole).
func TestKeyAliasesNameKeys(t *testing.T) {
	for alias, name := range KeyAliases {
		if !slices.Contains(keyNames, KeyName(name)) && !slices.Contains(keyModifiers, KeyModifier(name)) {
			t.Errorf("alias %q stands for %q, which is no key", alias, name)
		}
	}
}
