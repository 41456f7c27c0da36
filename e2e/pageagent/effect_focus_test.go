package pageagent

import (
	"encoding/json"
	"testing"
)

// TestEffectOfTheFocusedElement: a press without a ref (ref null) is
// classified against the document's focused element, through open shadow
// roots; nothing focused, or a frame's owner focused, is no effect here
// (the frame inside answers for its own focus). A key with a ref goes to
// the ref's key field, as the press and type steps send it.
func TestEffectOfTheFocusedElement(t *testing.T) {
	p := open(t, "/commit.html")
	r := refs(t, p)

	p.pageEval(t, `document.querySelector("#compose button[type=submit]").focus()`, nil)
	send := p.effectFocused(t, "Enter")
	if deref(send.Effect) != "send" || send.Preview.Control != "Send" {
		t.Errorf("Enter on the focused Send: %s %+v", deref(send.Effect), send.Preview)
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(send.Descriptor), &d); err != nil || d["ref"] != nil || d["press"] != "Enter" {
		t.Errorf("descriptor of the focused element %q (%v)", send.Descriptor, err)
	}
	if got := p.effectFocused(t, "Space"); deref(got.Effect) != "send" {
		t.Errorf("Space on the focused Send: %s", deref(got.Effect))
	}

	// Enter in the focused To field submits through Send.
	p.pageEval(t, `document.getElementById("to").focus()`, nil)
	if got := p.effectFocused(t, "Enter"); deref(got.Effect) != "send" {
		t.Errorf("Enter in the focused To field: %s", deref(got.Effect))
	}

	// Nothing focused: the body takes the key, which does nothing.
	p.pageEval(t, `document.activeElement.blur()`, nil)
	if got := p.effectFocused(t, "Enter"); got.Effect != nil || got.Descriptor != "" {
		t.Errorf("Enter with nothing focused: %s %q", deref(got.Effect), got.Descriptor)
	}

	// A Send button inside an open shadow root.
	p.pageEval(t, `(() => {
		const host = document.createElement("div");
		document.body.append(host);
		const root = host.attachShadow({ mode: "open" });
		root.innerHTML = '<form method="post" action="/chat"><textarea aria-label="Reply">See you</textarea><button type="submit">Send</button></form>';
		root.querySelector("button").focus();
	})()`, nil)
	if got := p.effectFocused(t, "Enter"); deref(got.Effect) != "send" {
		t.Errorf("Enter on a Send focused in a shadow root: %s", deref(got.Effect))
	}

	// A focused frame's owner: the frame's own document answers, not this one.
	p.pageEval(t, `(() => {
		const f = document.createElement("iframe");
		f.srcdoc = '<button>Send</button>';
		document.body.append(f);
		f.focus();
	})()`, nil)
	if got := p.effectFocused(t, "Enter"); got.Effect != nil {
		t.Errorf("Enter with an iframe focused: %s, want none from the parent", deref(got.Effect))
	}

	// A press with a ref on the chat box still classifies its Send.
	if got := p.effect(t, ref(t, r, `textbox "Chat message"`), "Enter"); deref(got.Effect) != "send" {
		t.Errorf("Enter in the chat box: %s", deref(got.Effect))
	}
}

func (p *tab) effectFocused(t testing.TB, press string) EffectReport {
	t.Helper()
	var r EffectReport
	p.call(t, &r, "effect", nil, press)
	return r
}
