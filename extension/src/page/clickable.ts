// Evidence that a person can click an element whose role does not say so
// (issue 11): a styled div "Submit", inbox rows, a date picker's Prev/Next
// anchors without href, list items a script reacts to. Such an element
// gets its own snapshot line with a ref, and a marker says why:
//   [cursor=pointer]  its own cursor is a pointer (not inherited from an
//                     element already marked; Playwright MCP's marker)
//   [clickable]       a click, mouse, pointer or touch handler: an inline
//                     on… attribute, or a listener the debugger route found
//                     with DOMDebugger.getEventListeners (takeListened)
//   [draggable]       draggable="true" (HTML5 drag and drop)
// An anchor without href and an element with tabindex >= 0 get a line too,
// without a marker (their role, generic, says the rest).

import { LISTENED_GLOBAL } from "../shared/page-agent";
import type { ScopeStyle } from "./style-index";

/** Inline handler attributes that mean the element reacts to a press. */
const HANDLERS = ["onclick", "onmousedown", "onmouseup", "onpointerdown", "onpointerup", "ondblclick", "ontouchstart"];

export const enum Evidence {
  None = 0,
  Pointer = 1,
  Handler = 2,
  Draggable = 4,
  /** An <a> without href, or tabindex >= 0: a line, no marker. */
  Focusable = 8,
  /** Not evidence: the computed cursor is a pointer here, which descendants inherit. */
  InPointer = 16,
}

/**
 * The elements the debugger route's last scan found press listeners on
 * (the contract's LISTENED_GLOBAL, which each scan replaces, and which
 * stands while the document has not changed since: page/mutations.ts):
 * without a report (the scripting route, a document too large to scan)
 * none. The root and body are left out: a listener there delegates for
 * the whole page.
 */
export function takeListened(): WeakSet<Element> {
  const report: unknown = Reflect.get(globalThis, LISTENED_GLOBAL);
  const set = new WeakSet<Element>();
  if (Array.isArray(report)) {
    for (const el of report) {
      if (el instanceof Element && el !== document.documentElement && el !== document.body) set.add(el);
    }
  }
  return set;
}

/**
 * The element's evidence, with InPointer when its cursor is a pointer
 * (what its descendants inherit). inPointer: an ancestor's cursor is a
 * pointer, so this element's own pointer is inherited, not evidence.
 * byRole: its role is already actionable, so only draggable is looked
 * for. The computed cursor is read only where the tree scope's CSS sets a
 * cursor at all (StyleIndex): a style read costs 1–2 µs per element, the
 * attribute reads a few tens of ns.
 */
export function evidenceOf(
  el: Element,
  tag: string,
  byRole: boolean,
  scope: ScopeStyle,
  inPointer: boolean,
  listened: WeakSet<Element>,
): number {
  let evidence: number = inPointer ? Evidence.InPointer : Evidence.None;
  if (scope.cursor) {
    const pointer = getComputedStyle(el).cursor === "pointer";
    evidence = pointer ? (inPointer ? Evidence.InPointer : Evidence.InPointer | Evidence.Pointer) : Evidence.None;
  }
  if (!el.hasAttributes()) {
    if (tag === "a") evidence |= Evidence.Focusable;
    return evidence;
  }
  if (el.getAttribute("draggable") === "true") evidence |= Evidence.Draggable;
  if (byRole) return evidence;
  if (listened.has(el)) evidence |= Evidence.Handler;
  for (const h of HANDLERS) {
    if (el.hasAttribute(h)) {
      evidence |= Evidence.Handler;
      break;
    }
  }
  const tabindex = el.getAttribute("tabindex");
  if (tabindex !== null && Number.parseInt(tabindex, 10) >= 0) evidence |= Evidence.Focusable;
  else if (tag === "a" && !el.hasAttribute("href")) evidence |= Evidence.Focusable;
  return evidence;
}

/**
 * The markers of a line, each after a space. An element whose role is
 * already actionable (a button, a link) shows only [draggable]: a pointer
 * over a link says nothing new.
 */
export function markersOf(evidence: number, actionableRole: boolean): string {
  let out = "";
  if (!actionableRole) {
    if (evidence & Evidence.Pointer) out += " [cursor=pointer]";
    else if (evidence & Evidence.Handler) out += " [clickable]";
  }
  if (evidence & Evidence.Draggable) out += " [draggable]";
  return out;
}
