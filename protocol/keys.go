package protocol

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The key names of a press step's chord ("Enter", "Control+A",
// "Shift+Tab", "a", "+", "Control++"). The host checks a chord with them
// before a batch is recorded; the extension turns the same names into key
// events (extension/src/background/act/keys.ts, whose tables are
// Record<KeyName, …> and Record<KeyModifier, …>, so a name added here
// without its key codes fails tsc).

// KeyModifier is a key a chord may hold down.
type KeyModifier string

const (
	KeyAlt     KeyModifier = "Alt"
	KeyControl KeyModifier = "Control"
	KeyMeta    KeyModifier = "Meta"
	KeyShift   KeyModifier = "Shift"
)

// KeyName is a named key a chord may end with; any single character is a
// key too.
type KeyName string

const (
	KeyEnter       KeyName = "Enter"
	KeyTab         KeyName = "Tab"
	KeyEscape      KeyName = "Escape"
	KeyBackspace   KeyName = "Backspace"
	KeyDelete      KeyName = "Delete"
	KeyInsert      KeyName = "Insert"
	KeySpace       KeyName = "Space"
	KeyArrowUp     KeyName = "ArrowUp"
	KeyArrowDown   KeyName = "ArrowDown"
	KeyArrowLeft   KeyName = "ArrowLeft"
	KeyArrowRight  KeyName = "ArrowRight"
	KeyHome        KeyName = "Home"
	KeyEnd         KeyName = "End"
	KeyPageUp      KeyName = "PageUp"
	KeyPageDown    KeyName = "PageDown"
	KeyCapsLock    KeyName = "CapsLock"
	KeyContextMenu KeyName = "ContextMenu"
	KeyF1          KeyName = "F1"
	KeyF2          KeyName = "F2"
	KeyF3          KeyName = "F3"
	KeyF4          KeyName = "F4"
	KeyF5          KeyName = "F5"
	KeyF6          KeyName = "F6"
	KeyF7          KeyName = "F7"
	KeyF8          KeyName = "F8"
	KeyF9          KeyName = "F9"
	KeyF10         KeyName = "F10"
	KeyF11         KeyName = "F11"
	KeyF12         KeyName = "F12"
)

// KeyAliases are the other names a chord may use (any case), by the name
// they stand for.
var KeyAliases = map[string]string{
	"ctrl": "Control", "control": "Control", "cmd": "Meta", "command": "Meta", "meta": "Meta", "win": "Meta", "super": "Meta",
	"alt": "Alt", "option": "Alt", "opt": "Alt", "shift": "Shift",
	"esc": "Escape", "return": "Enter", "del": "Delete", "spacebar": "Space", " ": "Space",
	"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "pgup": "PageUp", "pgdn": "PageDown",
}

// keyModifiers and keyNames list the constants above for the host's
// check (TestEnumListsAreWhole keeps them whole).
var (
	keyModifiers = []KeyModifier{KeyAlt, KeyControl, KeyMeta, KeyShift}
	keyNames     = []KeyName{
		KeyEnter, KeyTab, KeyEscape, KeyBackspace, KeyDelete, KeyInsert, KeySpace, KeyArrowUp, KeyArrowDown,
		KeyArrowLeft, KeyArrowRight, KeyHome, KeyEnd, KeyPageUp, KeyPageDown, KeyCapsLock, KeyContextMenu,
		KeyF1, KeyF2, KeyF3, KeyF4, KeyF5, KeyF6, KeyF7, KeyF8, KeyF9, KeyF10, KeyF11, KeyF12,
	}
)

// canonicalKey resolves an alias, then a name in any case; ok is false
// when name is neither.
func canonicalKey[K ~string](name string, names []K) (K, bool) {
	if alias, ok := KeyAliases[strings.ToLower(name)]; ok {
		name = alias
	}
	for _, k := range names {
		if strings.EqualFold(string(k), name) {
			return k, true
		}
	}
	return "", false
}

// ChordProblem says why keys is not a chord, or "" when it is one. The
// grammar is parseChord's in extension/src/background/act/keys.ts; both
// are tested on protocol/testdata/chords.json.
func ChordProblem(keys string) string {
	if keys == "" {
		return "keys is empty"
	}
	var parts []string
	switch {
	case keys == "+":
		parts = []string{"+"}
	case strings.HasSuffix(keys, "++"): // a trailing "+" after a separator is the plus key
		parts = append(strings.Split(keys[:len(keys)-2], "+"), "+")
	default:
		parts = strings.Split(keys, "+")
	}
	last := parts[len(parts)-1]
	if last == "" {
		return strconv.Quote(keys) + " does not end with a key"
	}
	held := map[KeyModifier]bool{}
	for _, part := range parts[:len(parts)-1] {
		m, ok := canonicalKey(part, keyModifiers)
		if !ok {
			return strconv.Quote(part) + " in " + strconv.Quote(keys) + " is not a modifier (Control, Shift, Alt, Meta)"
		}
		if held[m] {
			return strconv.Quote(keys) + " names " + string(m) + " twice"
		}
		held[m] = true
	}
	if _, ok := canonicalKey(last, keyModifiers); ok {
		return ""
	}
	if _, ok := canonicalKey(last, keyNames); ok {
		return ""
	}
	if utf8.RuneCountInString(last) == 1 {
		return ""
	}
	return strconv.Quote(last) + " is not a key name (Enter, Tab, Escape, ArrowDown, F5, …) or a single character"
}
