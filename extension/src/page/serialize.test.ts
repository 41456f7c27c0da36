import { test } from "node:test";
import assert from "node:assert/strict";
import { elementItem, Kind, ownedItem, textItem, type Item } from "./items";
import { serialize, type Refs } from "./serialize";

// Elements stand in as plain objects: serialize only hands them to refs.
const el = (n: number): Element => ({ n }) as unknown as Element;

class FakeRefs implements Refs {
  readonly given = new Map<Element, string>();
  nextId = 7;
  known(e: Element): string | undefined {
    return this.given.get(e);
  }
  take(e: Element): string {
    const r = this.given.get(e) ?? "e" + this.nextId++;
    this.given.set(e, r);
    return r;
  }
}

const refs = (): FakeRefs => new FakeRefs();

function element(depth: number, e: Element, head: string, extra: Partial<Item> = {}): Item {
  return { ...elementItem(depth, e, head, true), ...extra };
}

test("lines, indentation, refs, url, value, children and frames", () => {
  const items: Item[] = [
    element(0, el(1), 'form "Booking"', { children: true }),
    element(1, el(2), 'textbox "Email"', { text: "a@b.c" }),
    element(1, el(3), 'link "Terms"', { url: "/terms" }),
    textItem(Kind.Text, 1, "Total: 5"),
    element(1, el(4), 'option "A" [selected]', { ref: false }),
    element(0, el(5), 'iframe "Ads"', { frame: true }),
  ];
  const out = serialize(items, "  ", 10_000, refs());
  assert.equal(
    out.text,
    [
      '  - form "Booking" [ref=e7]:',
      '    - textbox "Email" [ref=e8]: a@b.c',
      '    - link "Terms" [ref=e9] [url=/terms]',
      "    - text: Total: 5",
      '    - option "A" [selected]',
      '  - iframe "Ads" [ref=e10]',
    ].join("\n"),
  );
  assert.equal(out.truncated, false);
  assert.deepEqual(out.frames, [{ ref: "e10", line: 6 }]);
});

test("maxChars stops before the line that does not fit and hands out no ref past it", () => {
  const r = refs();
  const items = [element(0, el(1), 'button "One"'), element(0, el(2), 'button "Two"')];
  const first = '- button "One" [ref=e7]';
  const out = serialize(items, "", first.length + 5, r);
  assert.equal(out.text, first);
  assert.equal(out.truncated, true);
  assert.equal(r.given.size, 1);
  assert.equal(out.totalChars, 2 * first.length + 1);
});

test("a long text line is cut to fit", () => {
  const items = [textItem(Kind.Raw, 0, "x".repeat(500))];
  const out = serialize(items, "", 100, refs());
  assert.equal(out.truncated, true);
  assert.equal(out.text.length, 100);
  assert.ok(out.text.endsWith("…"));
});

test("a text run's line carries its element's ref, the run after the colon", () => {
  const r = refs();
  const items = [ownedItem(0, el(1), "listitem", "Pay rent"), ownedItem(1, el(2), "paragraph", "Long… (+312 chars)"), textItem(Kind.Text, 1, "tail")];
  const out = serialize(items, "", 10_000, r);
  assert.equal(out.text, ["- listitem [ref=e7]: Pay rent", "  - paragraph [ref=e8]: Long… (+312 chars)", "  - text: tail"].join("\n"));
  assert.equal(r.given.size, 2);
});
