import { test } from "node:test";
import assert from "node:assert/strict";
// The table the host's protocol.ChordProblem is tested on too (protocol/steps_test.go).
import chords from "../../../../protocol/testdata/chords.json";
import { CONTROL, gatedKeyEvents, keyEvents, META, parseChord, SHIFT, typed } from "./keys";
import type { Chord } from "./keys";

function chord(s: string): Chord {
  const c = parseChord(s);
  if (typeof c === "string") assert.fail(c);
  return c;
}

test("named keys, aliases and case", () => {
  assert.deepEqual(chord("Enter").key, { key: "Enter", code: "Enter", keyCode: 13, text: "\r" });
  assert.equal(chord("escape").key.key, "Escape");
  assert.equal(chord("Esc").key.key, "Escape");
  assert.equal(chord("ArrowDown").key.keyCode, 40);
  assert.equal(chord("down").key.key, "ArrowDown");
  assert.equal(chord("F5").key.keyCode, 116);
  assert.equal(chord("Space").key.key, " ");
  assert.deepEqual(chord("Tab").key, { key: "Tab", code: "Tab", keyCode: 9 });
});

test("single characters get US-layout codes", () => {
  assert.deepEqual(chord("a").key, { key: "a", code: "KeyA", keyCode: 65, text: "a" });
  assert.deepEqual(chord("Z").key, { key: "Z", code: "KeyZ", keyCode: 90, text: "Z" });
  assert.deepEqual(chord("7").key, { key: "7", code: "Digit7", keyCode: 55, text: "7" });
  assert.deepEqual(chord("!").key, { key: "!", code: "Digit1", keyCode: 49, text: "!" });
  assert.deepEqual(chord("?").key, { key: "?", code: "Slash", keyCode: 191, text: "?" });
  assert.deepEqual(chord("é").key, { key: "é", code: "", keyCode: 0, text: "é" });
  assert.deepEqual(chord("+").key.code, "Equal");
});

test("chords: modifiers with their bits, the plus key, aliases", () => {
  const c = chord("Control+A");
  assert.equal(c.bits, CONTROL);
  assert.deepEqual(c.modifiers.map((m) => m.key), ["Control"]);
  assert.equal(c.key.code, "KeyA");
  assert.equal(chord("Ctrl+Shift+Tab").bits, CONTROL | SHIFT);
  assert.equal(chord("Cmd+Enter").bits, META);
  assert.equal(chord("Meta+Enter").key.key, "Enter");
  const plus = chord("Control++");
  assert.equal(plus.bits, CONTROL);
  assert.equal(plus.key.key, "+");
  assert.equal(chord("Shift").key.key, "Shift");
});

test("bad keys are refused with a reason", () => {
  for (const bad of ["", "Enterr", "Foo+A", "Control+", "Control+Control+A", "ab"]) {
    assert.equal(typeof parseChord(bad), "string", bad);
  }
});

test("Enter types a carriage return, as a char after its rawKeyDown; Tab has no text", () => {
  assert.deepEqual(keyEvents(chord("Enter")), [
    { type: "rawKeyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, modifiers: 0 },
    { type: "char", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, modifiers: 0, text: "\r", unmodifiedText: "\r" },
    { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, modifiers: 0 },
  ]);
  assert.deepEqual(keyEvents(chord("Tab")).map((e) => e.type), ["rawKeyDown", "keyUp"]);
});

test("Control+A holds Control around a shortcut without text", () => {
  assert.deepEqual(keyEvents(chord("Control+A")), [
    { type: "rawKeyDown", key: "Control", code: "ControlLeft", windowsVirtualKeyCode: 17, modifiers: CONTROL, location: 1 },
    { type: "rawKeyDown", key: "A", code: "KeyA", windowsVirtualKeyCode: 65, modifiers: CONTROL },
    { type: "keyUp", key: "A", code: "KeyA", windowsVirtualKeyCode: 65, modifiers: CONTROL },
    { type: "keyUp", key: "Control", code: "ControlLeft", windowsVirtualKeyCode: 17, modifiers: 0, location: 1 },
  ]);
});

test("Shift types the upper case; Shift+Tab has no text; modifiers are released in reverse", () => {
  const a = keyEvents(chord("Shift+a"));
  assert.deepEqual(a.map((e) => [e.type, e.key, e.text]), [
    ["rawKeyDown", "Shift", undefined],
    ["rawKeyDown", "A", undefined],
    ["char", "A", "A"],
    ["keyUp", "A", undefined],
    ["keyUp", "Shift", undefined],
  ]);
  assert.equal(a[2]?.modifiers, SHIFT);
  const back = keyEvents(chord("Control+Shift+Tab"));
  assert.deepEqual(back.map((e) => [e.type, e.key, e.modifiers]), [
    ["rawKeyDown", "Control", CONTROL],
    ["rawKeyDown", "Shift", CONTROL | SHIFT],
    ["rawKeyDown", "Tab", CONTROL | SHIFT],
    ["keyUp", "Tab", CONTROL | SHIFT],
    ["keyUp", "Shift", CONTROL],
    ["keyUp", "Control", 0],
  ]);
});

test("the host and the extension accept the same chords (protocol/testdata/chords.json)", () => {
  for (const k of chords.valid) assert.equal(typeof parseChord(k), "object", JSON.stringify(k));
  for (const k of chords.invalid) assert.equal(typeof parseChord(k), "string", JSON.stringify(k));
});

test("typed text: US-layout keys with Shift's bit for upper case and shifted symbols, Enter where it makes a line, text for what no key types", () => {
  const shown = (text: string, multiline: boolean): string[] =>
    typed(text, multiline).map((p) => ("text" in p ? `text ${JSON.stringify(p.text)}` : `${p.key.key.key} ${p.key.key.code}${p.key.bits === SHIFT ? " shift" : ""}`));
  assert.deepEqual(shown("aZ 1!", false), ["a KeyA", "Z KeyZ shift", "  Space", "1 Digit1", "! Digit1 shift"]);
  assert.deepEqual(shown("é中\tx", false), ['text "é中\\t"', "x KeyX"]);
  assert.deepEqual(shown("a\r\nb\nc", true), ["a KeyA", "Enter Enter", "b KeyB", "Enter Enter", "c KeyC"]);
  assert.deepEqual(shown("a\nb", false), ["a KeyA", 'text "\\n"', "b KeyB"], "a one-line field's form is not submitted");
});

test("a gated key's events: one keyDown carrying its text, then keyUp", () => {
  assert.deepEqual(
    gatedKeyEvents(chord("Shift+b")).map((e) => [e.type, e.key, e.text]),
    [
      ["rawKeyDown", "Shift", undefined],
      ["keyDown", "B", "B"],
      ["keyUp", "B", undefined],
      ["keyUp", "Shift", undefined],
    ],
  );
  assert.deepEqual(gatedKeyEvents(chord("Escape")).map((e) => e.type), ["rawKeyDown", "keyUp"], "a key without text stays a rawKeyDown");
});
