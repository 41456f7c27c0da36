// What receives the pointer at a point of this frame's viewport, for the
// checks a drag makes where it presses and where it drops (issue 9: a
// drop puts text into the element under it, and a press on a field's
// selected text drags that text out; neither may touch a password,
// one-time-code or payment-card field).

import type { PointField } from "../shared/page-agent";
import { describe } from "./describe";
import { isSensitiveElement } from "./sensitive";

// The HTML elements a shadow root can be attached to (DOM Standard,
// attachShadow), besides custom elements.
const SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span"]);

/**
 * Whether el may hold a closed shadow root, which no world but the
 * debugger's DOM domain can enter (el.shadowRoot is null here even when it
 * has one): el can host a shadow root and shows no open one.
 */
export function mayHideShadowRoot(el: Element): boolean {
  if (el.shadowRoot !== null || !(el instanceof HTMLElement)) return false;
  return el.localName.includes("-") || SHADOW_HOSTS.has(el.localName);
}

/** The element that receives the pointer at (x, y), looking into open shadow roots. */
export function elementAt(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === hit) break;
    hit = inner;
  }
  return hit;
}

// Elements whose content is another frame's document (HTMLFrameOwnerElement).
const FRAME_OWNERS = new Set(["iframe", "frame", "object", "embed"]);

/** Whether el may show another frame's document (the worker asks the debugger whether it does). */
export function isFrameOwner(el: Element): boolean {
  return FRAME_OWNERS.has(el.localName);
}

export function fieldAt(x: number, y: number): PointField {
  const el = elementAt(x, y);
  if (el === null) return { sensitive: false, description: "", sealed: false, frame: false };
  return { sensitive: isSensitiveElement(el), description: describe(el), sealed: mayHideShadowRoot(el), frame: isFrameOwner(el) };
}
