import { test } from "node:test";
import assert from "node:assert/strict";
import { elementItem, Kind, ownedItem, textItem } from "./items";
import { joinTexts, unwrap } from "./reshape";

const el = (n: number): Element => ({ n }) as unknown as Element;

test("a click target's text lines join onto its line", () => {
  const items = [elementItem(0, el(1), "generic [clickable]", true), ownedItem(1, el(2), "generic", "Dana Scully"), textItem(Kind.Text, 1, "Lunch on Friday?")];
  assert.equal(joinTexts(items, 0, ""), true);
  assert.equal(items.length, 1);
  assert.equal(items[0]?.text, "Dana Scully Lunch on Friday?");
});

test("text does not join past an element line or a deeper line", () => {
  const withButton = [elementItem(0, el(1), "generic [clickable]", true), ownedItem(1, el(2), "generic", "Row"), elementItem(1, el(3), 'button "Star"', true)];
  assert.equal(joinTexts(withButton, 0, ""), false);
  assert.equal(withButton.length, 3);
  const deeper = [elementItem(0, el(1), "generic", true), elementItem(1, el(2), "list", true), textItem(Kind.Text, 2, "x")];
  assert.equal(joinTexts(deeper, 0, ""), false);
});

test("a wrapper of elements only goes, its content one level up", () => {
  // When settle runs, the lines after at are at's content.
  const content = [
    elementItem(0, el(1), "generic [cursor=pointer]", true),
    elementItem(1, el(2), 'menuitem "File"', true),
    elementItem(1, el(3), "menu", true),
    elementItem(2, el(4), 'menuitem "New"', true),
  ];
  assert.equal(unwrap(content, 0), true);
  assert.deepEqual(
    content.map((i) => `${i.depth} ${i.head}`),
    ['0 menuitem "File"', "0 menu", '1 menuitem "New"'],
  );
  const withText = [elementItem(0, el(1), "generic [cursor=pointer]", true), ownedItem(1, el(2), "paragraph", "A card"), elementItem(1, el(3), 'button "Like"', true)];
  assert.equal(unwrap(withText, 0), false);
});
