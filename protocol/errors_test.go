package protocol

import (
	"testing"
)

// errorCodes lists every ErrorCode constant declared in this package's
// source (not only those some test knows), so that a new code without a
// catalogue entry fails here.
func errorCodes(t *testing.T) map[string]ErrorCode {
	return declared[ErrorCode](t, "ErrorCode")
}

func TestEveryErrorCodeHasACatalogueEntry(t *testing.T) {
	codes := errorCodes(t)
	if len(codes) < 40 {
		t.Fatalf("found only %d ErrorCode constants; the scan is broken", len(codes))
	}
	known := map[ErrorCode]bool{}
	for name, code := range codes {
		known[code] = true
		e, ok := ErrorCatalogue[code]
		if !ok {
			t.Errorf("%s (%s) has no entry in ErrorCatalogue (errors.go)", name, code)
			continue
		}
		if e.Meaning == "" || e.Recovery == "" || e.Outcome == "" {
			t.Errorf("%s: catalogue entry is incomplete: %+v", code, e)
		}
	}
	for code := range ErrorCatalogue {
		if !known[code] {
			t.Errorf("catalogue entry %s has no ErrorCode constant", code)
		}
	}
}

func TestFailTakesTheCatalogue(t *testing.T) {
	e := Fail(CodeNotOwned, "gone")
	want := ErrorCatalogue[CodeNotOwned]
	if e.Code != CodeNotOwned || e.Message != "gone" || e.Recovery != want.Recovery || e.Outcome != want.Outcome {
		t.Fatalf("Fail = %+v", e)
	}
	if e := FailAs(CodeNotOwned, OutcomeDispatched, "gone"); e.Outcome != OutcomeDispatched || e.Recovery != want.Recovery {
		t.Fatalf("FailAs = %+v", e)
	}
}
