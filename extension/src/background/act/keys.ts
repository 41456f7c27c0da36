// Keys and chords for press steps ("Enter", "Control+A", "Shift+Tab",
// "Meta+Enter", "a", "!"), turned into Input.dispatchKeyEvent parameters
// with the key, code and Windows virtual key code of a US keyboard (what
// Chrome's own input code and Puppeteer's US layout use).

import { KeyAliases } from "../../protocol/generated";
import type { KeyModifier, KeyName } from "../../protocol/generated";

export interface KeyDef {
  key: string;
  code: string;
  keyCode: number;
  /** The text the key types without modifiers (printable keys, Enter). */
  text?: string;
  /** 1 for the left-hand modifier keys. */
  location?: number;
}

/** Input.dispatchKeyEvent modifier bits. */
export const ALT = 1;
export const CONTROL = 2;
export const META = 4;
export const SHIFT = 8;

// The key names are protocol's (protocol/keys.go), which the host checks
// chords with; these tables add each key's codes, and their Record types
// make tsc name a key added there without its codes here.
const MODIFIERS: Record<KeyModifier, { def: KeyDef; bit: number }> = {
  Alt: { def: { key: "Alt", code: "AltLeft", keyCode: 18, location: 1 }, bit: ALT },
  Control: { def: { key: "Control", code: "ControlLeft", keyCode: 17, location: 1 }, bit: CONTROL },
  Meta: { def: { key: "Meta", code: "MetaLeft", keyCode: 91, location: 1 }, bit: META },
  Shift: { def: { key: "Shift", code: "ShiftLeft", keyCode: 16, location: 1 }, bit: SHIFT },
};

function fKey(n: number): KeyDef {
  return { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };
}

const NAMED: Record<KeyName, KeyDef> = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  Insert: { key: "Insert", code: "Insert", keyCode: 45 },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
  CapsLock: { key: "CapsLock", code: "CapsLock", keyCode: 20 },
  ContextMenu: { key: "ContextMenu", code: "ContextMenu", keyCode: 93 },
  F1: fKey(1),
  F2: fKey(2),
  F3: fKey(3),
  F4: fKey(4),
  F5: fKey(5),
  F6: fKey(6),
  F7: fKey(7),
  F8: fKey(8),
  F9: fKey(9),
  F10: fKey(10),
  F11: fKey(11),
  F12: fKey(12),
};

const ALIASES = KeyAliases;

// US layout: each printable character's code and key code, and the
// character it gives with Shift.
const PUNCTUATION: [string, string, string, number][] = [
  ["`", "~", "Backquote", 192],
  ["-", "_", "Minus", 189],
  ["=", "+", "Equal", 187],
  ["[", "{", "BracketLeft", 219],
  ["]", "}", "BracketRight", 221],
  ["\\", "|", "Backslash", 220],
  [";", ":", "Semicolon", 186],
  ["'", '"', "Quote", 222],
  [",", "<", "Comma", 188],
  [".", ">", "Period", 190],
  ["/", "?", "Slash", 191],
];
const SHIFTED_DIGITS = ")!@#$%^&*(";

function charKey(c: string): KeyDef {
  const lower = c.toLowerCase();
  if (lower.length === 1 && lower >= "a" && lower <= "z") {
    return { key: c, code: `Key${lower.toUpperCase()}`, keyCode: lower.toUpperCase().charCodeAt(0), text: c };
  }
  if (c >= "0" && c <= "9") return { key: c, code: `Digit${c}`, keyCode: 48 + Number(c), text: c };
  const shiftedDigit = SHIFTED_DIGITS.indexOf(c);
  if (shiftedDigit >= 0) return { key: c, code: `Digit${shiftedDigit}`, keyCode: 48 + shiftedDigit, text: c };
  for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
    if (c === plain || c === shifted) return { key: c, code, keyCode, text: c };
  }
  // Any other character (é, ß, 中): typed as itself, with no physical key.
  return { key: c, code: "", keyCode: 0, text: c };
}

/** The entry of table named name (an alias, or a name in any case). */
function lookup<T>(table: Record<string, T>, name: string): T | undefined {
  const canonical = (ALIASES[name.toLowerCase()] ?? name).toLowerCase();
  return Object.entries(table).find(([k]) => k.toLowerCase() === canonical)?.[1];
}

function namedKey(name: string): KeyDef | undefined {
  return lookup(NAMED, name);
}

export interface Chord {
  /** Held modifiers, in the order given. */
  modifiers: KeyDef[];
  /** Their Input.dispatchKeyEvent bits. */
  bits: number;
  key: KeyDef;
}

/**
 * Parses "Control+Shift+K", "Enter", "a", "+" or "Control++"; an error
 * text when it is not a key. The host checks chords with the same grammar
 * (protocol.ChordProblem); both are tested on protocol/testdata/chords.json.
 */
export function parseChord(s: string): Chord | string {
  if (s === "") return "keys is empty";
  // A trailing "+" after a separator is the plus key itself ("Control++").
  const parts = s === "+" ? ["+"] : s.endsWith("++") ? [...s.slice(0, -2).split("+"), "+"] : s.split("+");
  const last = parts.pop();
  if (last === undefined || last === "") return `${JSON.stringify(s)} does not end with a key`;
  const modifiers: KeyDef[] = [];
  let bits = 0;
  for (const part of parts) {
    const m = lookup(MODIFIERS, part);
    if (m === undefined) return `${JSON.stringify(part)} in ${JSON.stringify(s)} is not a modifier (Control, Shift, Alt, Meta)`;
    if ((bits & m.bit) !== 0) return `${JSON.stringify(s)} names ${m.def.key} twice`;
    bits |= m.bit;
    modifiers.push(m.def);
  }
  const asModifier = lookup(MODIFIERS, last);
  if (asModifier !== undefined) return { modifiers, bits, key: asModifier.def };
  const named = namedKey(last);
  if (named !== undefined) return { modifiers, bits, key: named };
  if ([...last].length === 1) return { modifiers, bits, key: charKey(last) };
  return `${JSON.stringify(last)} is not a key name (Enter, Tab, Escape, ArrowDown, F5, …) or a single character`;
}

export interface KeyEvent {
  type: "rawKeyDown" | "keyDown" | "char" | "keyUp";
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  modifiers: number;
  text?: string;
  unmodifiedText?: string;
  location?: number;
}

function event(type: KeyEvent["type"], def: KeyDef, modifiers: number, text?: string): KeyEvent {
  const e: KeyEvent = { type, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers };
  if (text !== undefined) {
    e.text = text;
    e.unmodifiedText = text;
  }
  if (def.location !== undefined) e.location = def.location;
  return e;
}

/**
 * The events of one press: modifiers down, the key down and up, modifiers
 * up in reverse. A printable key types its text unless Control, Alt or
 * Meta is held (then it is a shortcut: rawKeyDown without text); Shift
 * types letters in upper case.
 *
 * A key that types goes down as rawKeyDown and then char, never as one
 * keyDown carrying its text: Chrome puts a keyDown's text into whatever
 * has focus after the page's keydown handlers ran, which may have moved
 * focus into a password field (e2e TestKeysNeverReachSensitiveFields).
 * Split, the worker checks focus again before the char (typing.ts).
 * Observed in Chromium 156: the page sees the same events either way
 * (keydown, keypress, beforeinput, textInput, input, keyup), Enter in a
 * form's field submits it, and a keydown the page prevents drops the char.
 */
export function keyEvents(chord: Chord): KeyEvent[] {
  const out: KeyEvent[] = [];
  let held = 0;
  for (const m of chord.modifiers) {
    held |= lookup(MODIFIERS, m.key)?.bit ?? 0;
    out.push(event("rawKeyDown", m, held));
  }
  const k = chord.key;
  const shortcut = (chord.bits & (CONTROL | ALT | META)) !== 0;
  let text = shortcut ? undefined : k.text;
  if (text !== undefined && (chord.bits & SHIFT) !== 0 && text.length === 1) text = text.toUpperCase();
  const key = text !== undefined && k.text !== undefined && k.text.length === 1 && k.key.length === 1 ? { ...k, key: text } : k;
  out.push(event("rawKeyDown", key, chord.bits));
  if (text !== undefined) out.push(event("char", key, chord.bits, text));
  out.push(event("keyUp", key, chord.bits));
  for (const m of [...chord.modifiers].reverse()) {
    held &= ~(lookup(MODIFIERS, m.key)?.bit ?? 0);
    out.push(event("keyUp", m, held));
  }
  return out;
}

/** Whether a person types c on a US keyboard with Shift held. */
function shifted(c: string): boolean {
  return (c >= "A" && c <= "Z") || SHIFTED_DIGITS.includes(c) || PUNCTUATION.some(([, s]) => s === c);
}

/** One part of a type step's text: a key to press (keyEvents), or text no key types. */
export type Typed = { key: Chord } | { text: string };

/**
 * What a type step sends for text, as a person types it on a US keyboard
 * (issue 11: real key events per character, so key handlers and input
 * masks react): each character's key down, character and key up, with
 * Shift's bit for an upper-case letter or a shifted symbol (no Shift key
 * events of their own, as Playwright's and Puppeteer's type send). A line
 * break is Enter where Enter makes one (multiline: a textarea, an editable
 * region); in a one-line field Enter would submit its form, so the break
 * goes in as text, which the field drops. Characters no key of the layout
 * types (é, 中, a tab) go in as text, as an input method commits them;
 * consecutive ones together.
 */
export function typed(text: string, multiline: boolean): Typed[] {
  const out: Typed[] = [];
  const put = (c: string): void => {
    const last = out[out.length - 1];
    if (last !== undefined && "text" in last) last.text += c;
    else out.push({ text: c });
  };
  for (const c of text.replace(/\r\n?/g, "\n")) {
    if (c === "\n") {
      if (multiline) out.push({ key: { modifiers: [], bits: 0, key: NAMED.Enter } });
      else put(c);
      continue;
    }
    const key = c === " " ? NAMED.Space : charKey(c);
    if (key.code === "") put(c);
    else out.push({ key: { modifiers: [], bits: shifted(c) ? SHIFT : 0, key } });
  }
  return out;
}

/**
 * A typed key's events where the page's key gate stands (page/key-gate.ts:
 * type steps): one keyDown carrying the key's text, then keyUp, as
 * Playwright and Puppeteer send them. Chrome puts the text into whatever
 * has focus after the keydown handlers ran; the gate stops it there
 * unless that is still the field typed into, so the split that pressChord
 * needs for its check between the two is not needed (one command less
 * per key).
 */
export function gatedKeyEvents(chord: Chord): KeyEvent[] {
  const events = keyEvents(chord);
  const i = events.findIndex((e) => e.type === "char");
  const char = events[i];
  // The char follows its key's rawKeyDown, which carries the same key, code and modifiers.
  return char === undefined ? events : [...events.slice(0, i - 1), { ...char, type: "keyDown" }, ...events.slice(i + 1)];
}
