package mcpserver

import (
	"strconv"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// A call whose Core request would exceed corerpc.MaxLine is refused by the
// adapter before anything is sent: invalid_params naming the limit,
// not_started. The host never sees it, and the connection stays: the next
// call goes out on it (one hello in all).
func TestOversizeCallRefusedBeforeSending(t *testing.T) {
	socket := socketPath(t)
	core := &fakeCore{answer: func(string) (any, error) { return protocol.ActResult{}, nil }}
	serveCore(t, socket, core)
	cs := connect(t, socket)
	huge := strings.Repeat("x", corerpc.MaxLine)
	res, isErr := callTool(t, cs, protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1,
		"actions": []any{map[string]any{"kind": "fill", "ref": "e1", "text": huge}}})
	msg, _ := res["message"].(string)
	if !isErr || res["code"] != string(protocol.CodeInvalidParams) || res["outcome"] != string(protocol.OutcomeNotStarted) ||
		!strings.Contains(msg, strconv.Itoa(corerpc.MaxLine)) || res["recovery"] == "" {
		t.Fatalf("an oversize act: code %v, outcome %v, message %.200q (isError %v)", res["code"], res["outcome"], msg, isErr)
	}
	if core.last(protocol.MethodAct) != nil {
		t.Fatal("the oversize request reached the host")
	}
	if res, isErr := callTool(t, cs, protocol.MethodAct, map[string]any{"tab": "tab_1", "expected_page_revision": 1,
		"actions": []any{map[string]any{"kind": "fill", "ref": "e1", "text": "ok"}}}); isErr {
		t.Fatalf("the next act failed: %v", res)
	}
	hellos := 0
	core.mu.Lock()
	for _, r := range core.requests {
		if r.method == protocol.MethodHello {
			hellos++
		}
	}
	core.mu.Unlock()
	if hellos != 1 {
		t.Fatalf("%d hellos: the adapter dialled again", hellos)
	}
}
