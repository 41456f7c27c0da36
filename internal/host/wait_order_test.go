package host

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Issue 10: a browser_wait pipelined before an act reaches the extension
// before it, every time (DESIGN.md "Queues": a wait starts after the task's
// earlier mutations and never blocks later ones; the extension orders a
// task's requests as they arrive on the port). Before the fix the host
// released the task's order before writing the wait to the port, so the
// act behind it could be written first and the wait then started after
// that act too. The test holds each wait a moment on its way to the port,
// where the scheduler may hold it in production, to give the act its
// chance to overtake.
func TestWaitReachesTheExtensionBeforeALaterAct(t *testing.T) {
	var h *Host
	r := startRig(t, withHost(&h))
	h.link.mu.Lock()
	h.link.beforeWrite = func(method string) {
		if method == protocol.NativeWait {
			time.Sleep(5 * time.Millisecond) // a hold, not a speed check
		}
	}
	h.link.mu.Unlock()
	c := r.raw()
	opened := c.openTask("https://example.com/w")
	tab := opened.Tab.Tab
	wait := rawRequest{protocol.MethodWait, protocol.WaitParams{Tab: tab, Condition: protocol.WaitCondition{Until: protocol.WaitLoad}}}

	const rounds = 50
	for i := range rounds {
		id := 10 + 2*i
		c.send(id, wait, fill(tab, strconv.Itoa(i)))
		for id, ans := range c.read(2) {
			if ans.Error != nil {
				t.Fatalf("round %d: request %d: %+v", i, id, ans.Error.Data)
			}
		}
	}

	// Each round's wait, then its act, in the order the extension read them.
	var got, want []string
	for i := range rounds {
		want = append(want, "wait", "act "+strconv.Itoa(i))
	}
	for _, q := range r.ext.seenRequests() {
		switch q.Method {
		case protocol.NativeWait:
			got = append(got, "wait")
		case protocol.NativeAct:
			var p protocol.ExtActParams
			json.Unmarshal(q.Params, &p)
			got = append(got, "act "+p.Actions[0].Text)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the extension read the task's requests in this order:\n%v\nsent:\n%v", got, want)
	}
}
