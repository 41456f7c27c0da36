// Package sample exercises every mapping of tsgen; its expected output is
// testdata/sample.ts.golden.
package sample

// Limit is an untyped number.
const Limit = 1 << 10

const (
	// Ratio is a float.
	Ratio  = 0.5
	Name   = "x<y>&z" // Name keeps <, > and & as they are.
	Yes    = true
	hidden = "unexported constants are skipped"
)

// Color is a string enum.
type Color string

const (
	ColorRed  Color = "red"
	ColorBlue Color = "blue"
)

// Colors lists every Color in the order agents see them: ColorValues
// follows it, and it is not written again under its own name.
var Colors = []Color{ColorBlue, ColorRed}

// Level has no constants, so it is a plain alias.
type Level int

// Thing has one field of each kind.
type Thing struct {
	Type     string           `json:"type" ts:"\"thing\""`
	Color    Color            `json:"color"`
	Maybe    Color            `json:"maybe,omitempty"`
	Ptr      *Inner           `json:"ptr,omitempty"`
	Nullable *Inner           `json:"nullable"`
	List     []Inner          `json:"list"`
	Ptrs     []*Inner         `json:"ptrs"`
	Lookup   map[string]Level `json:"lookup"`
	Blob     []byte           `json:"blob"`
	Any      any              `json:"any"`
	Dashed   int              `json:"a-b"`
	Untagged bool
	Skipped  string `json:"-"`
	private  string
}

// Inner is referenced by Thing.
type Inner struct {
	// N counts.
	N int64 `json:"n"` // line comments join the doc.
}

// Shade is one color's table entry.
type Shade struct {
	Hex  string `json:"hex"`
	Dark bool   `json:"dark,omitempty"`
	// Mixes lists the colors it is made of.
	Mixes []Color `json:"mixes,omitempty"`
	skip  int
}

const darkHex = "#003"

// Shades is a table keyed by an enum type: a Record over its union.
var Shades = map[Color]Shade{
	ColorRed:  {Hex: "#f00"},
	ColorBlue: {Hex: darkHex, Dark: true, Mixes: []Color{ColorBlue, ColorRed}},
}

// notExported is never generated.
var notExported = Shades

// Part names a part of a Thing: one of Parts's keys.
type Part string

// Parts is a type table: each key with a zero value of its type. It is
// written as an interface, and Part as the union of its keys.
var Parts = map[Part]any{
	"inner": Inner{},
	"shade": Shade{},
	"none":  struct{}{},
}

// PartColors is keyed by a type table's key type: a Record over Part, so
// a missing part fails tsc.
var PartColors = map[Part]Color{"inner": ColorRed, "shade": ColorBlue, "none": ColorRed}

// Order is decoded: one field of each shape a decoder reads.
//
//tsgen:decode
type Order struct {
	Type     string           `json:"type" ts:"\"order\""`
	Color    Color            `json:"color"`
	Maybe    Color            `json:"maybe,omitempty"`
	Count    int              `json:"count"`
	Serial   int64            `json:"serial"`
	Ratio    float64          `json:"ratio"`
	Done     bool             `json:"done"`
	Level    Level            `json:"level"`
	Part     Part             `json:"part"`
	Ptr      *Inner           `json:"ptr,omitempty"`
	Nullable *Inner           `json:"nullable"`
	Items    []Inner          `json:"items"`
	Ptrs     []*Inner         `json:"ptrs"`
	Grid     [][]Color        `json:"grid"`
	Tags     []string         `json:"tags,omitempty"`
	Shades   map[string]Shade `json:"shades"`
	Any      any              `json:"any"`
	Dashed   string           `json:"a-b,omitempty"`
	Next     *Order           `json:"next,omitempty"`
	Empty    Empty            `json:"empty"`
	Skipped  string           `json:"-"`
	private  int
}

// Empty has no fields: its decoder reads an object and keeps nothing.
type Empty struct{}
