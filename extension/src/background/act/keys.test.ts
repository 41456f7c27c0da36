import { test } from "node:test";
import assert from "node:assert/strict";
// The table the host's protocol.ChordProblem is tested on too (protocol/steps_test.go).
import chords from "../../../../protocol/testdata/chords.json";
import { CONTROL, keyEvents, META, parseChord, SHIFT } from "./keys";
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
