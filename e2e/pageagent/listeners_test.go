package pageagent

import (
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// pressTypes are the listener types background/pagework/listeners.ts
// reports to the page agent.
var pressTypes = map[string]bool{
	"click": true, "auxclick": true, "dblclick": true, "mousedown": true, "mouseup": true,
	"pointerdown": true, "pointerup": true, "touchstart": true, "touchend": true,
}

// reportListeners does what the debugger route does before a snapshot
// (background/pagework/listeners.ts): it finds the elements of the main
// frame's document with press listeners (DOMDebugger.getEventListeners)
// and leaves them in the page agent's world (LISTENED_GLOBAL of
// src/shared/page-agent.ts), so that the next snapshot marks them.
// Delegation roots (20 or more listener types) are left out, as there.
func (p *tab) reportListeners(t testing.TB) {
	t.Helper()
	// The main world's object of the document (Runtime.evaluate without a
	// context), as there for a top frame.
	doc, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "document"})
	if err != nil || doc.Result == nil || doc.Result.ObjectID == "" {
		t.Fatalf("the document: %v", err)
	}
	found, err := chromedp.Call(p.ctx, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: doc.Result.ObjectID, Depth: new(int64(-1))})
	if err != nil {
		t.Fatal(err)
	}
	types := map[cdp.BackendNodeID]map[string]bool{}
	for _, l := range found.Listeners {
		if l.BackendNodeID == 0 {
			continue
		}
		if types[l.BackendNodeID] == nil {
			types[l.BackendNodeID] = map[string]bool{}
		}
		types[l.BackendNodeID][l.Type] = true
	}
	var args []*runtime.CallArgument
	for node, set := range types {
		press := false
		for typ := range set {
			press = press || pressTypes[typ]
		}
		if !press || len(set) >= 20 {
			continue
		}
		obj, err := chromedp.Call(p.ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: node, ExecutionContextID: p.world})
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, &runtime.CallArgument{ObjectID: obj.Object.ObjectID})
	}
	if len(args) == 0 {
		return
	}
	if _, err := chromedp.Call(p.ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: "function (...elements) { globalThis.__agenttabListened = elements; }",
		ExecutionContextID:  p.world,
		Arguments:           args,
	}); err != nil {
		t.Fatal(err)
	}
}
