package pageagent

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// line is one element line of a snapshot.
type line struct {
	role, name, ref, rest string
}

var lineRE = regexp.MustCompile(`^\s*- (\S+)(?: ("(?:[^"\\]|\\.)*"))?(.*?)\[ref=(e\d+)\](.*)$`)

// lines parses the element lines with refs of a snapshot.
func lines(t testing.TB, text string) []line {
	t.Helper()
	var out []line
	for _, l := range strings.Split(text, "\n") {
		m := lineRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		var name string
		if m[2] != "" {
			if err := json.Unmarshal([]byte(m[2]), &name); err != nil {
				t.Fatalf("line %q: name %s: %v", l, m[2], err)
			}
		}
		out = append(out, line{role: m[1], name: name, ref: m[4], rest: m[3] + m[5]})
	}
	return out
}

// chromeAX returns Chrome's own role and name for the element of ref,
// from Accessibility.getPartialAXTree. A label's ref stands for its
// control (the snapshot's line for a custom-styled checkbox).
func (p *tab) chromeAX(t testing.TB, ref string) (role, name string, ignored bool) {
	t.Helper()
	res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression: `(e => e instanceof HTMLLabelElement && e.control ? e.control : e)(__agenttab.element(` + jsonString(ref) + `))`,
		ContextID:  p.world,
	})
	if err != nil || res.Result == nil || res.Result.ObjectID == "" {
		t.Fatalf("resolving %s: %v", ref, err)
	}
	ax, err := chromedp.Call(p.ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
		ObjectID:       res.Result.ObjectID,
		FetchRelatives: new(false),
	})
	if err != nil || len(ax.Nodes) == 0 {
		t.Fatalf("AX node of %s: %v", ref, err)
	}
	n := ax.Nodes[0]
	str := func(v *accessibility.Value) string {
		var s string
		if v != nil && len(v.Value) > 0 {
			_ = json.Unmarshal(v.Value, &s)
		}
		return s
	}
	return str(n.Role), str(n.Name), n.Ignored
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
