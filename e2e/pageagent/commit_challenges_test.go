package pageagent

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// EffectReport and ChallengeSighting mirror src/shared/page-agent.ts.
type EffectReport struct {
	Effect     *string `json:"effect"`
	Rule       *string `json:"rule"`
	Descriptor string  `json:"descriptor"`
	Preview    struct {
		Control string `json:"control"`
		Fields  []struct {
			Label     string `json:"label"`
			Value     string `json:"value"`
			Sensitive bool   `json:"sensitive"`
		} `json:"fields"`
	} `json:"preview"`
}

type ChallengeSighting struct {
	Vendor       string `json:"vendor"`
	Product      string `json:"product"`
	Kind         string `json:"kind"`
	Interaction  string `json:"interaction"`
	Confidence   string `json:"confidence"`
	TokenPresent bool   `json:"tokenPresent"`
}

func (p *tab) effect(t testing.TB, ref string, press any) EffectReport {
	t.Helper()
	var r EffectReport
	p.call(t, &r, "effect", ref, press)
	return r
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// TestEffect: the Commit classifier in a real page (shared/effects.ts's
// rules, page/effect.ts's descriptor and preview).
func TestEffect(t *testing.T) {
	p := open(t, "/commit.html")
	r := refs(t, p)
	for _, c := range []struct {
		key    string
		press  any
		effect string
		rule   string
	}{
		{`button "Send"`, nil, "send", "name_send"},
		{`button "Send"`, "Enter", "send", "name_send"},
		// Enter in a field: the form's default button decides.
		{`textbox "To"`, "Enter", "send", "name_send"},
		// Other keys in a field are typing.
		{`textbox "To"`, "Delete", "<null>", "<null>"},
		{`button "Save draft"`, nil, "<null>", "<null>"},
		// Rails' hidden _method=delete: the name ("Remove item") says nothing the rules trust.
		{`button "Remove item"`, nil, "delete", "form_method_delete"},
		{`button "Zahlungspflichtig bestellen"`, nil, "purchase", "name_purchase"},
		{`button "Search"`, nil, "<null>", "<null>"},
		// Enter in a search field searches.
		{`searchbox "Query"`, "Enter", "<null>", "<null>"},
		// A navigating link asks for a page.
		{`link "Delete"`, nil, "<null>", "<null>"},
		{`link "Add to cart"`, nil, "<null>", "<null>"},
		// A chat box: Enter sends through the box's Send button.
		{`textbox "Chat message"`, "Enter", "send", "name_send"},
	} {
		got := p.effect(t, ref(t, r, c.key), c.press)
		if deref(got.Effect) != c.effect || deref(got.Rule) != c.rule {
			t.Errorf("effect(%s, %v) = %s by %s, want %s by %s", c.key, c.press, deref(got.Effect), deref(got.Rule), c.effect, c.rule)
		}
	}

	// The preview: the form's visible fields, labels and values; the
	// password's value is never in it, nor in the descriptor.
	send := p.effect(t, ref(t, r, `button "Send"`), nil)
	if send.Preview.Control != "Send" {
		t.Errorf("preview control %q", send.Preview.Control)
	}
	want := []string{"To=ada@example.com", "Message=See you at noon", "Password=(sensitive)"}
	var got []string
	for _, f := range send.Preview.Fields {
		v := f.Label + "=" + f.Value
		if f.Sensitive {
			if f.Value != "" {
				t.Errorf("sensitive field %q has a value", f.Label)
			}
			v = f.Label + "=(sensitive)"
		}
		got = append(got, v)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("preview fields %v, want %v (no hidden field, no buttons)", got, want)
	}
	all, _ := json.Marshal(send)
	for _, canary := range []string{"hunter2-canary", "hidden-token", "draft=1"} {
		if strings.Contains(string(all), canary) {
			t.Errorf("the report holds %q: %s", canary, all)
		}
	}
	// The descriptor is canonical JSON with the step's ref, the same on a second look.
	var d map[string]any
	if err := json.Unmarshal([]byte(send.Descriptor), &d); err != nil {
		t.Fatalf("descriptor %q: %v", send.Descriptor, err)
	}
	if d["ref"] != ref(t, r, `button "Send"`) || d["formMethod"] != "post" || !strings.HasSuffix(d["formAction"].(string), "/mail/send") {
		t.Errorf("descriptor %s", send.Descriptor)
	}
	if again := p.effect(t, ref(t, r, `button "Send"`), nil); again.Descriptor != send.Descriptor {
		t.Errorf("descriptor changed: %s then %s", send.Descriptor, again.Descriptor)
	}
	// Enter in the field: its own ref, the default button's description.
	var enter map[string]any
	_ = json.Unmarshal([]byte(p.effect(t, ref(t, r, `textbox "To"`), "Enter").Descriptor), &enter)
	if enter["ref"] != ref(t, r, `textbox "To"`) || enter["name"] != "Send" || enter["press"] != "Enter" || enter["inputType"] != "email" {
		t.Errorf("Enter descriptor %v", enter)
	}
	// A renamed control changes the descriptor (the commit's fingerprint check).
	p.pageEval(t, `document.querySelector("#compose button[type=submit]").textContent = "Delete"`, nil)
	if after := p.effect(t, ref(t, r, `button "Send"`), nil); after.Descriptor == send.Descriptor || deref(after.Effect) != "delete" {
		t.Errorf("after renaming: %s %s", deref(after.Effect), after.Descriptor)
	}

	// The chat box's preview shows the message it sends.
	chat := p.effect(t, ref(t, r, `textbox "Chat message"`), "Enter")
	if len(chat.Preview.Fields) != 1 || chat.Preview.Fields[0].Value != "Lunch at one?" || chat.Preview.Control != "Send message" {
		t.Errorf("chat preview %+v", chat.Preview)
	}

	// A submit of a form that says method="get" asks for a page, whatever
	// its button says; a form that names no method is a script's, whose
	// button's name decides.
	search := ref(t, r, `button "Search"`)
	p.pageEval(t, `document.querySelector("#search button").textContent = "Enviar"`, nil)
	scripted := p.effect(t, search, nil)
	var sd map[string]any
	_ = json.Unmarshal([]byte(scripted.Descriptor), &sd)
	if deref(scripted.Effect) != "send" || sd["formMethod"] != "" {
		t.Errorf("Enviar in a form without a method: %s, formMethod %q", deref(scripted.Effect), sd["formMethod"])
	}
	p.pageEval(t, `document.getElementById("search").setAttribute("method", "get")`, nil)
	for _, c := range []struct{ name, effect string }{{"Enviar", "<null>"}, {"Eliminar", "delete"}} {
		p.pageEval(t, `document.querySelector("#search button").textContent = `+strconv.Quote(c.name), nil)
		if got := p.effect(t, search, nil); deref(got.Effect) != c.effect {
			t.Errorf("%s in a GET form: %s, want %s", c.name, deref(got.Effect), c.effect)
		}
	}

	// A ref that does not resolve throws.
	if _, err := p.evalRaw(`__agenttab.effect("e999999", null)`); err == nil {
		t.Error("effect of an unknown ref did not throw")
	}
}

func (p *tab) challenges(t testing.TB) []ChallengeSighting {
	t.Helper()
	var s []ChallengeSighting
	p.call(t, &s, "challenges")
	return s
}

func (p *tab) inChallenge(t testing.TB, ref string) bool {
	t.Helper()
	var b bool
	p.call(t, &b, "inChallenge", ref)
	return b
}

func sightings(s []ChallengeSighting) string {
	var out []string
	for _, c := range s {
		out = append(out, c.Vendor+"/"+c.Product+" "+c.Kind+" "+c.Interaction+" "+c.Confidence)
	}
	return strings.Join(out, ", ")
}

// TestChallenges: pages that imitate catalog entries' markers are
// recognised (a spoof behaves like the real thing, spec 000), look-alikes
// are not, and nothing of the page's text, URLs, sitekeys or tokens is
// in what the agent returns.
func TestChallenges(t *testing.T) {
	t.Run("cloudflare interstitial", func(t *testing.T) {
		p := open(t, "/challenge/cloudflare.html")
		got := p.challenges(t)
		if s := sightings(got); s != "cloudflare/managed_challenge interstitial unknown high" {
			t.Errorf("challenges = %s", s)
		}
		// The whole document is the challenge: any element is guarded.
		r := refs(t, p)
		if !p.inChallenge(t, ref(t, r, `button "Verify you are human"`)) {
			t.Error("inChallenge(verify) = false on an interstitial")
		}
		noPageContent(t, got)
	})

	t.Run("widgets", func(t *testing.T) {
		p := open(t, "/challenge/widgets.html")
		got := p.challenges(t)
		if s := sightings(got); s != "google/recaptcha_v2 widget checkbox high, arkose_labs/funcaptcha widget puzzle high" {
			t.Errorf("challenges = %s", s)
		}
		for _, c := range got {
			if c.TokenPresent {
				t.Errorf("%s/%s token present before solving", c.Vendor, c.Product)
			}
		}
		r := refs(t, p)
		if !p.inChallenge(t, ref(t, r, `button "Audio challenge"`)) {
			t.Error("inChallenge(a button in the FunCaptcha container) = false")
		}
		if !p.inChallenge(t, ref(t, r, `iframe "reCAPTCHA"`)) {
			t.Error("inChallenge(reCAPTCHA's frame) = false")
		}
		for _, k := range []string{`button "Create account"`, `textbox "Email"`} {
			if p.inChallenge(t, ref(t, r, k)) {
				t.Errorf("inChallenge(%s) = true outside the widgets", k)
			}
		}
		// Solving fills the response field: token_present, never the token.
		p.pageEval(t, `document.getElementById("g-recaptcha-response").value = "canary-response-token"`, nil)
		got = p.challenges(t)
		if len(got) != 2 || !got[0].TokenPresent || got[1].TokenPresent {
			t.Errorf("after solving: %+v", got)
		}
		noPageContent(t, got)
	})

	t.Run("look-alikes", func(t *testing.T) {
		p := open(t, "/challenge/lookalikes.html")
		// Only the invisible checks bound to the form's Submit buttons
		// (with api.js, reCAPTCHA's is high), asking nothing of a person:
		// never a checkbox.
		got := p.challenges(t)
		if s := sightings(got); s != "google/recaptcha_v3 widget none high, hcaptcha/hcaptcha_invisible widget none low" {
			t.Errorf("challenges = %s, want the bound invisible checks only", s)
		}
		noPageContent(t, got)
		r := refs(t, p)
		// The user's click on a bound Submit is what runs the check: no refusal.
		for _, k := range []string{`button "Verify"`, `button "Submit"`, `button "Send"`, `textbox "Message"`} {
			if p.inChallenge(t, ref(t, r, k)) {
				t.Errorf("inChallenge(%s) = true on a look-alike page", k)
			}
		}
	})

	t.Run("an ordinary page", func(t *testing.T) {
		p := open(t, "/commit.html")
		if got := p.challenges(t); len(got) != 0 {
			t.Errorf("challenges on an ordinary page: %s", sightings(got))
		}
	})
}

func noPageContent(t *testing.T, got []ChallengeSighting) {
	t.Helper()
	b, _ := json.Marshal(got)
	if strings.Contains(string(b), "canary") {
		t.Errorf("a sighting holds page content: %s", b)
	}
}
