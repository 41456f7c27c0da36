// Writes items as the snapshot text: two spaces per level under the
// request's indent, refs handed out line by line, stopping before the
// line that would pass maxChars (later elements get no refs).

import { Kind, type Item } from "./items";
import { clip } from "./text";

/** A text line is cut to fit only when at least this much of it fits. */
const MIN_CUT = 40;

export interface Written {
  text: string;
  truncated: boolean;
  frames: { ref: string; line: number }[];
  /** The length of the whole text without maxChars. */
  totalChars: number;
}

/** Hands out refs: known is an element's ref if it has one, take gives one for good, next is the next new id. */
export interface Refs {
  known(el: Element): string | undefined;
  take(el: Element): string;
  readonly nextId: number;
}

export function serialize(items: readonly Item[], indent: string, maxChars: number, refs: Refs): Written {
  const lines: string[] = [];
  const frames: { ref: string; line: number }[] = [];
  let total = 0;
  let all = 0;
  let truncated = false;
  // New ids past the cut, counted for totalChars only.
  let estimated = 0;
  for (const item of items) {
    let ref = "";
    let fresh = false;
    if (item.kind === Kind.Element && item.ref && item.el) {
      const known = refs.known(item.el);
      fresh = known === undefined;
      // take() moves nextId on for the lines written; past the cut the
      // ids are only counted.
      ref = known ?? "e" + (refs.nextId + estimated);
    }
    const line = format(item, indent, ref);
    all += (all > 0 ? 1 : 0) + line.length;
    const sep = lines.length > 0 ? 1 : 0;
    const next = total + sep + line.length;
    if (truncated || next > maxChars) {
      // Text without a ref may be cut inside the line, so that a long
      // paragraph still shows its beginning.
      const room = maxChars - total - sep;
      if (!truncated && item.kind !== Kind.Element && room >= MIN_CUT) lines.push(clip(line, room));
      truncated = true;
      if (fresh) estimated++;
      continue;
    }
    total = next;
    lines.push(line);
    if (ref !== "" && item.el) refs.take(item.el);
    // The child frame's lines go right after its <iframe> line.
    if (item.frame && ref !== "") frames.push({ ref, line: lines.length });
  }
  return { text: lines.join("\n"), truncated, frames, totalChars: all };
}

function format(item: Item, indent: string, ref: string): string {
  const line = indent + "  ".repeat(item.depth);
  if (item.kind === Kind.Raw) return line + item.head;
  if (item.kind === Kind.Text) return line + "- text: " + item.head;
  let out = line + "- " + item.head;
  if (ref !== "") out += " [ref=" + ref + "]";
  if (item.url !== undefined) out += " [url=" + item.url + "]";
  if (item.text !== undefined) out += ": " + item.text;
  else if (item.children) out += ":";
  return out;
}
