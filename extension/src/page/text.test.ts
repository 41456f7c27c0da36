import { test } from "node:test";
import assert from "node:assert/strict";
import { clip, clipRun, collapse, oneLine, quote, squash, Tally } from "./text";

test("collapse keeps a no-break space, as Chrome's names do", () => {
  assert.equal(collapse("a \n\t b"), "a b");
  assert.equal(collapse("a\u00a0 b"), "a\u00a0 b");
  assert.equal(squash("  Send \n "), "Send");
});

test("clip marks the cut and never exceeds max", () => {
  assert.equal(clip("abcdef", 10), "abcdef");
  assert.equal(clip("abcdef", 4), "abc…");
  assert.equal(clip("abcdef", 4).length, 4);
});

test("quote escapes quotes and backslashes", () => {
  assert.equal(quote('Say "hi" \\ bye'), '"Say \\"hi\\" \\\\ bye"');
});

test("oneLine shows line breaks as \\n", () => {
  assert.equal(oneLine("a\r\nb\nc", 100), "a\\nb\\nc");
});

test("clipRun keeps short runs whole and marks how much a long one left out", () => {
  const tally = new Tally();
  assert.equal(clipRun("short text", 20, 10, tally), "short text");
  const long = "word ".repeat(60).trim(); // 299 characters
  const out = clipRun(long, 120, 80, tally);
  assert.match(out, /^(word ){15}word… \(\+220 chars\)$/);
  assert.equal(tally.chars, 220);
  assert.equal(tally.texts, 1);
  // No space near the limit: cut at keep.
  assert.equal(clipRun("x".repeat(200), 120, 80, tally), "x".repeat(80) + "… (+120 chars)");
  assert.equal(tally.chars, 340);
});

test("Tally.clip counts what clip leaves out", () => {
  const tally = new Tally();
  assert.equal(tally.clip("abcdef", 10), "abcdef");
  assert.equal(tally.clip("abcdef", 4), "abc…");
  assert.equal(tally.chars, 3);
  assert.equal(tally.texts, 1);
});
