package pageagent

import "testing"

// A target inside scrolled boxes is scrolled into view in each of them
// (issue 11, page/clip.ts), and the point aimed at is where it shows: the
// hit test there finds it. One clipped away by a box that does not scroll
// (a panel still 0 high) is not scrolled to and has no box; one an
// absolutely positioned element's containing block lies outside the
// clipping box is not clipped by it.
func TestTargetInClippingBoxes(t *testing.T) {
	p := open(t, "/clip.html")
	r := refs(t, p)
	scrollTop := func(id string) float64 {
		var v float64
		p.pageEval(t, `document.getElementById("`+id+`").scrollTop`, &v)
		return v
	}
	type box struct{ Top, Bottom, Left, Right float64 }
	visible := func(id string) box {
		var b box
		p.pageEval(t, `(() => { const r = document.getElementById("`+id+`").getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right}; })()`, &b)
		return b
	}
	for _, c := range []struct {
		key      string
		scrolled []string // boxes that must have scrolled
		within   string   // the box the point must lie in
	}{
		{`button "In the list"`, []string{"list"}, "list"},
		{`button "Nested"`, []string{"outer", "inner"}, "inner"},
		{`button "Half shown"`, nil, "half"},
		{`button "Escaped"`, nil, "escaped"},
	} {
		ref := ref(t, r, c.key)
		var info TargetInfo
		if p.call(t, &info, "target", ref); !info.OK {
			t.Errorf("target(%s) = %+v, want a point", c.key, info)
			continue
		}
		for _, id := range c.scrolled {
			if scrollTop(id) == 0 {
				t.Errorf("target(%s): #%s was not scrolled", c.key, id)
			}
		}
		if b := visible(c.within); info.Y < b.Top || info.Y > b.Bottom || info.X < b.Left || info.X > b.Right {
			t.Errorf("target(%s) aims at %v,%v, outside #%s %+v", c.key, info.X, info.Y, c.within, b)
		}
		var hit HitTest
		if p.call(t, &hit, "hitTest", ref, info.X, info.Y); !hit.OK {
			t.Errorf("hitTest(%s) at its point: %+v", c.key, hit)
		}
	}
	// The panel closes after the snapshot gave its button a ref.
	p.pageEval(t, `document.getElementById("shut").style.height = "0"`, nil)
	var info TargetInfo
	if p.call(t, &info, "target", ref(t, r, `button "Shut in"`)); info.OK || info.Reason != "no_box" || scrollTop("shut") != 0 {
		t.Errorf("target(shut in) = %+v, scrollTop %v; want no_box and the box left alone", info, scrollTop("shut"))
	}
}
