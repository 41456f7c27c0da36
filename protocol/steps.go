package protocol

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The browser_act step kinds and their rules, in one table (issue 10 part
// 1). The host's step check, Classify, the MCP schema's kind enum and,
// through the generated TypeScript, the extension's step check, dispatch
// and scripting route all read StepRules; adding a kind means adding its
// constant and its row, and the compiler (Record<StepKind, …>, an
// exhaustive switch) or TestEveryStepKindHasARule names every other place.

// StepKind is one kind of browser_act step.
type StepKind string

const (
	StepClick       StepKind = "click"
	StepDoubleClick StepKind = "double_click"
	StepHover       StepKind = "hover"
	StepFocus       StepKind = "focus"
	StepType        StepKind = "type"
	StepFill        StepKind = "fill"
	StepClear       StepKind = "clear"
	StepPress       StepKind = "press"
	StepSelect      StepKind = "select"
	StepCheck       StepKind = "check"
	StepUncheck     StepKind = "uncheck"
	StepScroll      StepKind = "scroll"
	StepDrag        StepKind = "drag"
	StepNavigate    StepKind = "navigate"
	StepReload      StepKind = "reload"
	StepBack        StepKind = "back"
	StepForward     StepKind = "forward"
	StepClose       StepKind = "close"
	StepDialog      StepKind = "dialog"
	StepWait        StepKind = "wait"
	// StepUploadFile sets a local file on a file input (issue 13; spec
	// 000's upload paragraphs): the host checks the path against
	// uploads.dlp_allowed_roots and stages a private copy, whose path the
	// extension sets through the debugger (DOM.setFileInputFiles).
	StepUploadFile StepKind = "upload_file"
)

// StepField is a Step field other than kind and ref, by its json name.
type StepField string

const (
	FieldText       StepField = "text"
	FieldKeys       StepField = "keys"
	FieldValues     StepField = "values"
	FieldURL        StepField = "url"
	FieldToRef      StepField = "to_ref"
	FieldPosition   StepField = "position"
	FieldDeltaX     StepField = "delta_x"
	FieldDeltaY     StepField = "delta_y"
	FieldAccept     StepField = "accept"
	FieldPromptText StepField = "prompt_text"
	FieldWait       StepField = "wait"
	FieldPath       StepField = "path"
)

// DropPosition is where in its target a drag step releases (issue 11
// item 7: sortable lists put the dragged item before or after the one it
// is released on by where the pointer is). The extension finds the
// target's list axis from where its neighbours are (act/drop-point.ts).
type DropPosition string

const (
	// DropCenter releases at the target's centre (the default).
	DropCenter DropPosition = "center"
	// DropBefore releases in the target's half that faces the item before
	// it (the upper half in a column, the left half in a left-to-right
	// row), a quarter of its length in from that edge.
	DropBefore DropPosition = "before"
	// DropAfter releases in the target's half that faces the item after it.
	DropAfter DropPosition = "after"
)

// DropPositions lists every DropPosition, in the order agents see them.
var DropPositions = []DropPosition{DropCenter, DropBefore, DropAfter}

// StepRefUse says whether a step kind takes an element ref.
type StepRefUse string

const (
	RefRequired StepRefUse = "required"
	// RefOptional: press sends keys to the ref's element or the focused
	// one; scroll scrolls the ref into view, or the page by a delta.
	RefOptional StepRefUse = "optional"
	RefNone     StepRefUse = "none"
)

// StepNavigates says whether a step kind navigates the tab's page.
type StepNavigates string

const (
	// NavigatesExpected: the step is a navigation (confirmed by its commit).
	NavigatesExpected StepNavigates = "expected"
	// NavigatesPossible: the page may answer the step's input with a
	// navigation or a popup (a link, a form, a script), which the step
	// follows and reports.
	NavigatesPossible StepNavigates = "possible"
	NavigatesNever    StepNavigates = "none"
)

// StepRule is what one step kind takes and does.
type StepRule struct {
	Ref StepRefUse `json:"ref"`
	// Needs are the fields the kind cannot do without; Takes the optional
	// ones. A field in neither is refused (invalid_params), so that a
	// field meant for another kind is not silently ignored.
	Needs []StepField `json:"needs,omitempty"`
	Takes []StepField `json:"takes,omitempty"`
	// Navigates: see StepNavigates.
	Navigates StepNavigates `json:"navigates"`
	// Class is the kind's request class: a batch of read steps only is a
	// read (Classify).
	Class RequestClass `json:"class"`
	// Routes are the page routes that serve the kind (spec 000: the
	// scripting route serves top-frame work when Chrome refuses the
	// debugger). None for the tab-lifecycle kinds, which use chrome.tabs,
	// and for wait, whose route follows its condition as browser_wait's
	// does.
	Routes []string `json:"routes,omitempty"`
}

// StepRules holds every StepKind's rule. Never change it at run time.
var StepRules = map[StepKind]StepRule{
	StepClick:       {Ref: RefRequired, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepDoubleClick: {Ref: RefRequired, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger}},
	StepHover:       {Ref: RefRequired, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger}},
	StepFocus:       {Ref: RefRequired, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepType:        {Ref: RefRequired, Needs: []StepField{FieldText}, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepFill:        {Ref: RefRequired, Takes: []StepField{FieldText}, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepClear:       {Ref: RefRequired, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepPress:       {Ref: RefOptional, Needs: []StepField{FieldKeys}, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger}},
	StepSelect:      {Ref: RefRequired, Needs: []StepField{FieldValues}, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepCheck:       {Ref: RefRequired, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepUncheck:     {Ref: RefRequired, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	// A scroll needs a ref or a delta (StepProblem).
	StepScroll:   {Ref: RefOptional, Takes: []StepField{FieldDeltaX, FieldDeltaY}, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger, RouteScripting}},
	StepDrag:     {Ref: RefRequired, Needs: []StepField{FieldToRef}, Takes: []StepField{FieldPosition}, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger}},
	StepNavigate: {Ref: RefNone, Needs: []StepField{FieldURL}, Navigates: NavigatesExpected, Class: ClassMutation},
	StepReload:   {Ref: RefNone, Navigates: NavigatesExpected, Class: ClassMutation},
	StepBack:     {Ref: RefNone, Navigates: NavigatesExpected, Class: ClassMutation},
	StepForward:  {Ref: RefNone, Navigates: NavigatesExpected, Class: ClassMutation},
	StepClose:    {Ref: RefNone, Navigates: NavigatesNever, Class: ClassMutation},
	StepDialog:   {Ref: RefNone, Needs: []StepField{FieldAccept}, Takes: []StepField{FieldPromptText}, Navigates: NavigatesPossible, Class: ClassMutation, Routes: []string{RouteDebugger}},
	StepWait:     {Ref: RefNone, Needs: []StepField{FieldWait}, Navigates: NavigatesNever, Class: ClassRead},
	// Only the debugger can set a file input's files (spec 000: file
	// upload is work only the debugger can do).
	StepUploadFile: {Ref: RefRequired, Needs: []StepField{FieldPath}, Navigates: NavigatesNever, Class: ClassMutation, Routes: []string{RouteDebugger}},
}

// RefPattern is what a ref looks like: "e" and the element's id from the
// tab's counter, which starts at 1 (extension/src/page/registry.ts hands
// them out; the service worker's refs.ts reads them with this pattern).
const RefPattern = "^e[1-9][0-9]{0,14}$"

var refPattern = regexp.MustCompile(RefPattern)

// IsRef says whether s looks like a ref.
func IsRef(s string) bool { return refPattern.MatchString(s) }

// StepProblem says what is wrong with a step by its kind's rule, or ""
// when nothing is: an unknown kind, a missing or malformed ref or to_ref,
// a drop position that is not one, a field the kind needs and lacks or
// does not take, a scroll with neither ref nor delta, keys that are not
// a chord. It does not check the values the host reads further (the
// navigate URL, the wait condition).
func StepProblem(s Step) string {
	rule, ok := StepRules[s.Kind]
	if !ok {
		return "is not a step kind; see the browser_act schema for the kinds"
	}
	switch {
	case rule.Ref == RefRequired && s.Ref == "":
		return "needs a ref from the latest snapshot"
	case rule.Ref == RefNone && s.Ref != "":
		return "takes no ref"
	case s.Ref != "" && !IsRef(s.Ref):
		return refProblem("ref", s.Ref)
	case s.ToRef != "" && !IsRef(s.ToRef):
		return refProblem("to_ref", s.ToRef)
	case s.Position != "" && !slices.Contains(DropPositions, s.Position):
		return "position " + strconv.Quote(string(s.Position)) + " is not one of " + fmt.Sprintf("%q", DropPositions)
	}
	given := stepFields(s)
	for _, f := range rule.Needs {
		if !given[f] {
			return "needs " + string(f)
		}
	}
	for f := range given {
		if !slices.Contains(rule.Needs, f) && !slices.Contains(rule.Takes, f) {
			return "takes no " + string(f) + "; see the browser_act schema for each kind's fields"
		}
	}
	switch s.Kind {
	case StepScroll:
		if s.Ref == "" && s.DeltaX == 0 && s.DeltaY == 0 {
			return "needs a ref to scroll into view, or delta_x/delta_y"
		}
	case StepPress:
		return ChordProblem(s.Keys)
	}
	return ""
}

func refProblem(field, ref string) string {
	const shown = 40
	if len(ref) > shown {
		ref = ref[:shown] + "…"
	}
	return field + " " + strconv.Quote(ref) + ` is not a ref (refs look like "e12" in a snapshot)`
}

// stepFields are the fields a step gives, by json name (a zero value is
// not given: the wire omits it).
func stepFields(s Step) map[StepField]bool {
	out := map[StepField]bool{}
	v := reflect.ValueOf(s)
	for i, f := range reflect.VisibleFields(v.Type()) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "kind" || name == "ref" || v.Field(i).IsZero() {
			continue
		}
		out[StepField(name)] = true
	}
	return out
}
