// Rewrites of a click target's lines once its content is walked
// (walker.ts settle), on the items alone: no DOM, unit-tested in
// reshape.test.ts. An element kept only because a person can click it
// (clickable.ts) is worth one line, not a subtree of wrappers.

import { Kind, type Item } from "./items";

/**
 * The lines after items[at] are all text lines one level down: their
 * texts join onto its line (an inbox row of a sender, a subject and a
 * date reads as one line). Answers whether it did.
 */
export function joinTexts(items: Item[], at: number, name: string): boolean {
  const item = items[at];
  if (!item) return false;
  const texts: string[] = [];
  for (let i = at + 1; i < items.length; i++) {
    const c = items[i];
    if (!c || c.depth !== item.depth + 1 || !(c.kind === Kind.Text || c.owned)) return false;
    texts.push(c.owned ? (c.text ?? "") : c.head);
  }
  if (texts.length === 0) return false;
  items.length = at + 1;
  const text = texts.join(" ");
  if (text !== name) item.text = text;
  return true;
}

/**
 * The lines one level down from items[at] are all elements' (it has no
 * text of its own): the evidence is a wrapper's (a menu's list item styled
 * with the pointer of the menu item inside, a clickable cell around its
 * link), so its line goes and its content moves up a level. Answers
 * whether it did.
 */
export function unwrap(items: Item[], at: number): boolean {
  const item = items[at];
  if (!item || at + 1 >= items.length) return false;
  for (let i = at + 1; i < items.length; i++) {
    const c = items[i];
    if (!c || (c.depth === item.depth + 1 && (c.kind !== Kind.Element || c.owned))) return false;
  }
  items.splice(at, 1);
  for (let i = at; i < items.length; i++) {
    const c = items[i];
    if (c) c.depth--;
  }
  return true;
}
