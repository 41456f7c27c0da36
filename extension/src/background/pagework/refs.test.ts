import { test } from "node:test";
import assert from "node:assert/strict";
import { RefBook, refNumber, refsIn } from "./refs";

const top = { frameId: "F0", loaderId: "L1" };
const child = { frameId: "F1", loaderId: "L9" };

test("refNumber reads e-numbers only", () => {
  assert.equal(refNumber("e12"), 12);
  assert.equal(refNumber("e1"), 1);
  for (const bad of ["", "e0", "e01", "12", "E12", "e12 ", "ref=e12", "e1x", "e9999999999999999"]) assert.equal(refNumber(bad), undefined, bad);
});

test("refsIn reads the refs a snapshot shows", () => {
  const text = '- heading "Shop" [level=1]\n- link "Cart" [ref=e3] [url=/cart]\n  - button "Buy" [ref=e17]\n- text "[ref=x]"';
  assert.deepEqual(refsIn(text), [3, 17]);
});

test("each document's refs locate it; unknown refs locate nothing; a later snapshot takes a ref over", () => {
  const book = new RefBook();
  book.record(top, [1, 2, 9]);
  book.record(child, [10, 14]);
  assert.deepEqual(book.locate("e1"), top);
  assert.deepEqual(book.locate("e9"), top);
  assert.deepEqual(book.locate("e14"), child);
  assert.equal(book.locate("e3"), undefined);
  assert.equal(book.locate("x"), undefined);
  book.record(child, [9]);
  assert.deepEqual(book.locate("e9"), child);
});

test("a new document of the same frame does not inherit the old one's refs", () => {
  const book = new RefBook();
  book.record(top, [1, 2, 3]);
  const next = { ...top, loaderId: "L2" };
  book.record(next, [5, 6]);
  book.prune((d) => d.loaderId !== "L1");
  assert.equal(book.locate("e3"), undefined);
  assert.deepEqual(book.locate("e6"), next);
  book.clear();
  assert.equal(book.locate("e6"), undefined);
});
