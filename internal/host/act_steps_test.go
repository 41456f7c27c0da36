package host

import (
	"testing"

	"github.com/google/uuid"

	"github.com/agenttab/agenttab/protocol"
)

// Issue 10: steps the extension refuses by its kind's rule
// (protocol.StepRules) passed the host, which recorded the idempotency key
// as started before the extension said invalid_params, so a retry with the
// fixed step under the same key met that record. The host now refuses them
// first: nothing reaches the extension and nothing is recorded.
func TestActStepRulesRefusedBeforeTheKeyIsRecorded(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	c := r.client()
	opened := rpc[protocol.OpenResult](t, c, protocol.MethodOpen, protocol.OpenParams{URL: "https://example.com/", Mode: "create"})
	before := len(idemRecords(t, h, opened.Task.ID))
	for name, step := range map[string]map[string]any{
		"scroll with neither ref nor delta": {"kind": "scroll"},
		"ref without its e":                 {"kind": "click", "ref": "12"},
		"ref e0":                            {"kind": "click", "ref": "e0"},
		"ref with a suffix":                 {"kind": "fill", "ref": "e12x", "text": "a"},
		"scroll to a malformed ref":         {"kind": "scroll", "ref": "button"},
		"malformed to_ref":                  {"kind": "drag", "ref": "e1", "to_ref": "e-2"},
		"drag without to_ref":               {"kind": "drag", "ref": "e1"},
		"unknown key name":                  {"kind": "press", "keys": "Entr"},
		"unknown modifier":                  {"kind": "press", "keys": "Hyper+A"},
		"chord without its key":             {"kind": "press", "keys": "Control+"},
		"modifier twice":                    {"kind": "press", "keys": "Shift+shift+A"},
		"press without keys":                {"kind": "press"},
		"text on a click":                   {"kind": "click", "ref": "e1", "text": "hello"},
		"ref on a navigate":                 {"kind": "navigate", "ref": "e1", "url": "https://example.com/"},
		"values on a press":                 {"kind": "press", "keys": "Enter", "values": []string{"a"}},
		"delta on a click":                  {"kind": "click", "ref": "e1", "delta_y": 100},
	} {
		t.Run(name, func(t *testing.T) {
			key, err := uuid.NewV7()
			if err != nil {
				t.Fatal(err)
			}
			e := callErr(t, c, protocol.MethodAct, map[string]any{
				"tab": opened.Tab.Tab, "expected_page_revision": 1, "idempotency_key": key.String(), "actions": []any{step},
			})
			if e.Code != protocol.CodeInvalidParams || e.Outcome != protocol.OutcomeNotStarted || e.Recovery == "" {
				t.Errorf("got %+v, want invalid_params, not_started, with recovery", e)
			}
		})
	}
	if n := count(r.ext.seen(), protocol.NativeAct); n != 0 {
		t.Errorf("refused batches reached the extension %d times", n)
	}
	if got := idemRecords(t, h, opened.Task.ID); len(got) != before {
		t.Errorf("%d refused batches were recorded", len(got)-before)
	}
}
