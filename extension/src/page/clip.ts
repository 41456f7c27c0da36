// Where an element can be seen: the viewport, cut by every ancestor that
// clips its overflow. Source of truth: issue 11 (item 8): a button inside a
// scrolled results list lay inside the viewport but outside its list's
// scrolled area, so it was not scrolled to, and the hit test at its centre
// found the page behind the list ("covered by html").

import { composedParent } from "./dom";

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * What el's ancestors let it show through, in this frame's viewport:
 * shown, through every clipping ancestor; reach, through those a scroll
 * brings content into (the viewport, overflow auto or scroll). Outside
 * reach, scrolling el into view helps; inside reach but outside shown, an
 * ancestor hides it (an accordion panel still opening: overflow hidden).
 */
export interface Clip {
  shown: Box;
  reach: Box;
}

function viewport(): Box {
  const d = document.documentElement;
  return { left: 0, top: 0, right: d.clientWidth || window.innerWidth, bottom: d.clientHeight || window.innerHeight };
}

export function intersect(a: Box, b: Box): Box {
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

export function isEmpty(b: Box): boolean {
  return b.right <= b.left || b.bottom <= b.top;
}

/** Whether r lies wholly inside c (to the pixel: layout rounds). */
export function inside(r: Box, c: Box): boolean {
  return r.left >= c.left - 1 && r.top >= c.top - 1 && r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
}

/** The parent a box is laid out in: a slotted element's slot, a shadow root's host. */
function layoutParent(n: Node): Node | null {
  return n instanceof Element && n.assignedSlot !== null ? n.assignedSlot : composedParent(n);
}

/**
 * Whether an ancestor is the containing block of absolutely positioned
 * descendants (CSS 2 §10.1 and what transforms, filters and containment
 * add), which the ancestors between them do not clip.
 */
function containsAbsolute(s: CSSStyleDeclaration): boolean {
  return s.position !== "static" || s.transform !== "none" || s.filter !== "none" || s.perspective !== "none" || /paint|layout|strict|content/.test(s.contain);
}

const SCROLLS = new Set(["auto", "scroll"]);

const ALL: Box = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };

/** b's edges along the axes given, unbounded along the others. */
function along(b: Box, x: boolean, y: boolean): Box {
  return { left: x ? b.left : ALL.left, right: x ? b.right : ALL.right, top: y ? b.top : ALL.top, bottom: y ? b.bottom : ALL.bottom };
}

export function clipOf(el: Element): Clip {
  let shown = viewport();
  let reach = shown;
  const root = document.documentElement;
  const body = document.body;
  let position = getComputedStyle(el).position;
  // A fixed box is clipped by the viewport alone (unless a transformed
  // ancestor contains it: rare, and then the hit test still judges).
  if (position === "fixed") return { shown, reach };
  let skipping = position === "absolute";
  for (let n = layoutParent(el); n instanceof Element && n !== root && n !== body; n = layoutParent(n)) {
    const s = getComputedStyle(n);
    if (skipping) {
      if (!containsAbsolute(s)) continue;
      skipping = false;
    }
    if (s.display !== "contents" && (s.overflowX !== "visible" || s.overflowY !== "visible")) {
      // The padding box: inside the borders, scroll bars left out.
      const r = n.getBoundingClientRect();
      const padding = { left: r.left + n.clientLeft, top: r.top + n.clientTop, right: r.left + n.clientLeft + n.clientWidth, bottom: r.top + n.clientTop + n.clientHeight };
      shown = intersect(shown, along(padding, s.overflowX !== "visible", s.overflowY !== "visible"));
      reach = intersect(reach, along(padding, SCROLLS.has(s.overflowX), SCROLLS.has(s.overflowY)));
    }
    position = s.position;
    if (position === "fixed") break;
    skipping = position === "absolute";
  }
  return { shown, reach };
}
