// The snapshot's intermediate form: one item per output line, built by the
// walkers (walker.ts, readable.ts) and written out by serialize(), which
// hands out refs only to the lines that fit in maxChars.

import { clip, quote } from "./text";

/** Names are clipped to this many characters on a line. */
export const NAME_MAX = 100;

export const enum Kind {
  /** `- role "name" [states] [ref=eN] [url=…]: text` */
  Element,
  /** `- text: …` */
  Text,
  /** A line as it is (readable mode). */
  Raw,
}

export interface Item {
  kind: Kind;
  depth: number;
  /** The element of an Element item, which gets the ref. */
  el: Element | null;
  /** Element: `role "name" [states]`; Text and Raw: the text. */
  head: string;
  /** Whether the line carries a ref (native <option> lines do not: the select is acted on). */
  ref: boolean;
  url: string | undefined;
  /** Element: text after the colon (a field's value, or the element's only text). */
  text: string | undefined;
  /** Element: lines follow one level deeper (the line ends with a colon). */
  children: boolean;
  /** Element: an <iframe>/<frame>; the child frame's snapshot is spliced in after it. */
  frame: boolean;
  /**
   * Element: the line of a text run, whose ref is the element the text is
   * in (interactive mode: a list item, a cell, a paragraph, a div), so
   * that any text a person can click is addressable.
   */
  owned: boolean;
}

export function textItem(kind: Kind.Text | Kind.Raw, depth: number, text: string): Item {
  return { kind, depth, el: null, head: text, ref: false, url: undefined, text: undefined, children: false, frame: false, owned: false };
}

export function elementItem(depth: number, el: Element, head: string, ref: boolean): Item {
  return { kind: Kind.Element, depth, el, head, ref, url: undefined, text: undefined, children: false, frame: false, owned: false };
}

/** The line of a text run in el: `- role [states] [ref=eN]: text`. */
export function ownedItem(depth: number, el: Element, head: string, text: string): Item {
  const item = elementItem(depth, el, head, true);
  item.text = text;
  item.owned = true;
  return item;
}

/** The line of an <iframe>/<frame>: the service worker splices the child frame's snapshot in after it. */
export function frameItem(depth: number, el: Element, name: string): Item {
  const item = elementItem(depth, el, name === "" ? "iframe" : "iframe " + quote(clip(name, NAME_MAX)), true);
  item.frame = true;
  return item;
}
