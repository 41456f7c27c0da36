// What waits poll: visible text and an element's state; and scrolling.

import { disabled } from "./dom";
import { squash } from "./text";
import { visible } from "./visibility";

/**
 * Whether the visible text contains text (whitespace-insensitive).
 * body.innerText is laid-out text, so hidden content does not count; it
 * does not enter shadow roots, which are read only when the document's
 * own text misses.
 */
export function hasText(text: string): boolean {
  const needle = squash(text);
  if (needle === "") return true;
  const body = document.body;
  if (body === null) return false;
  if (squash(body.innerText).includes(needle)) return true;
  return shadowText(document, needle);
}

function shadowText(root: Document | ShadowRoot, needle: string): boolean {
  for (const el of root.querySelectorAll("*")) {
    const sr = el.shadowRoot;
    if (sr === null) continue;
    for (const c of sr.children) {
      if (c instanceof HTMLElement && squash(c.innerText).includes(needle)) return true;
    }
    if (shadowText(sr, needle)) return true;
  }
  return false;
}

/**
 * "gone" when the element is no longer in the document, "hidden" when it
 * is not shown (or has no box); a shown element is "disabled" or "enabled".
 */
export function state(el: Element | null): "hidden" | "enabled" | "disabled" | "gone" {
  if (el === null || !el.isConnected) return "gone";
  if (!visible(el) || el.getClientRects().length === 0) return "hidden";
  return disabled(el) ? "disabled" : "enabled";
}

export function scrollBy(el: Element | null, dx: number, dy: number): { x: number; y: number } {
  if (el === null) {
    window.scrollBy({ left: dx, top: dy, behavior: "instant" });
    return { x: window.scrollX, y: window.scrollY };
  }
  el.scrollBy({ left: dx, top: dy, behavior: "instant" });
  return { x: el.scrollLeft, y: el.scrollTop };
}
