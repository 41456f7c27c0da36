import { test } from "node:test";
import assert from "node:assert/strict";
import { clip, collapse, oneLine, quote, squash } from "./text";

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
