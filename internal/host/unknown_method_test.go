package host

import (
	"sort"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// The unknown-method refusal names the methods the host serves, all of
// them and only them, from the method table (issue 10: a hand-written list
// had fallen behind it).
func TestUnknownMethodNamesEveryServedMethod(t *testing.T) {
	r := startRig(t)
	e := callErr(t, r.client(), "browser_hack", nil)
	if e.Code != protocol.CodeUnknownMethod || e.Outcome != protocol.OutcomeNotStarted {
		t.Fatalf("got %+v, want unknown_method, not_started", e)
	}
	const prefix = "Use one of the Core methods: "
	list, ok := strings.CutPrefix(e.Recovery, prefix)
	if !ok {
		t.Fatalf("recovery %q does not start with %q", e.Recovery, prefix)
	}
	got := strings.Split(strings.TrimSuffix(list, "."), ", ")
	var want []string
	for name := range methods {
		want = append(want, name)
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("recovery names %v, the host serves %v", got, want)
	}
}
