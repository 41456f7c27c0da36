import { test } from "node:test";
import assert from "node:assert/strict";
import { parseContent } from "./css-content";

const attr = (name: string): string => (name === "data-x" ? "X" : "");

test("computed content values", () => {
  assert.equal(parseContent("none", attr), "");
  assert.equal(parseContent("normal", attr), "");
  assert.equal(parseContent('" *"', attr), " *");
  assert.equal(parseContent('"›"', attr), "›");
  assert.equal(parseContent('"\\203A"', attr), "›");
  assert.equal(parseContent('"\\203A x"', attr), "›x");
  assert.equal(parseContent("'it\\'s'", attr), "it's");
  assert.equal(parseContent('"(" attr(data-x) ")"', attr), "(X)");
  assert.equal(parseContent('counter(item) ". "', attr), ". ");
  assert.equal(parseContent('url("a.png")', attr), "");
  assert.equal(parseContent('counters(item, ".") " "', attr), " ");
});

test("the alternative text after / replaces the rest", () => {
  assert.equal(parseContent('"★" / "starred"', attr), "starred");
  assert.equal(parseContent('url(x.png) / ""', attr), "");
  assert.equal(parseContent('"a/b"', attr), "a/b");
});
