package host

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// waitCountCase is one row of protocol/testdata/wait_counts.json, the table
// the extension's checkWait is tested on too (act/validate.test.ts), so the
// two sides read every timeout_ms and idle_ms alike.
type waitCountCase struct {
	Condition json.RawMessage `json:"condition"`
	TimeoutMs int             `json:"timeout_ms"`
	IdleMs    int             `json:"idle_ms"`
	Refused   string          `json:"refused"`
}

func TestWaitCountsAgreeWithTheExtension(t *testing.T) {
	raw, err := os.ReadFile("../../protocol/testdata/wait_counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []waitCountCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		var w protocol.WaitCondition
		if err := json.Unmarshal(c.Condition, &w); err != nil {
			t.Fatalf("%s: %v", c.Condition, err)
		}
		perr := checkWaitCondition(&w)
		switch {
		case c.Refused != "":
			if perr == nil || perr.Code != protocol.CodeInvalidParams || perr.Outcome != protocol.OutcomeNotStarted || !strings.Contains(perr.Message, c.Refused) {
				t.Errorf("%s: got %v, want invalid_params, not_started saying %q", c.Condition, perr, c.Refused)
			}
		case perr != nil:
			t.Errorf("%s: refused: %v", c.Condition, perr)
		case *w.TimeoutMs != c.TimeoutMs || (c.IdleMs != 0 && (w.IdleMs == nil || *w.IdleMs != c.IdleMs)):
			t.Errorf("%s: timeout_ms %d, idle_ms %v; want %d, %d", c.Condition, *w.TimeoutMs, w.IdleMs, c.TimeoutMs, c.IdleMs)
		}
	}
}
