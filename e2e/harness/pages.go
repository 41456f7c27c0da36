package harness

import (
	"fmt"
	"strings"
)

// GenGroupSize is the elements of one repeating group of notes/peers.md's
// gen page: the section counts as one, with its five children.
const GenGroupSize = 6

// GenPage is notes/peers.md's gen?n=N: N elements in repeating groups, the
// page the peers were measured on.
func GenPage(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=utf-8><title>gen %d</title></head><body>", n)
	for g := range n / GenGroupSize {
		fmt.Fprintf(&b, `<section><h3>Group %d</h3><p>Paragraph %d: a short sentence of filler text.</p><button type="button">Button %d</button><a href="#g%d">Link %d</a><input type="text" aria-label="Input %d" placeholder="value %d"></section>`, g, g, g, g, g, g, g)
	}
	b.WriteString("</body></html>")
	return b.String()
}
