// Package enumlists is package protocol's enum lists gone wrong in every
// way TestEnumListCheckFindsBrokenLists expects the check to report.
package enumlists

type Color string

const (
	Red   Color = "red"
	Green Color = "green"
	Blue  Color = "blue"
)

// Colors misses Blue and repeats Red.
var Colors = []Color{Red, Green, Red}

type Hue string

const Warm Hue = "warm"

// Tints is a table keyed by Hue with a key that is no constant.
var Tints = map[Hue]int{Warm: 1, "teal": 2}

// Size is carried by a request and has no list.
type Size string

const (
	Small Size = "small"
	Large Size = "large"
)

// Shade has two lists.
type Shade string

const Dark Shade = "dark"

var (
	Shades     = map[Shade]bool{Dark: true}
	MoreShades = []Shade{Dark}
)

// Mood is an enum no request carries: it needs no list.
type Mood string

const Happy Mood = "happy"

type SizeParams struct {
	Sizes []*Size `json:"sizes"`
	Shade Shade   `json:"shade"`
}
