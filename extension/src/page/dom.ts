// DOM helpers the element functions share: crossing shadow boundaries,
// the focused element, disabled state, a label's control.

import { nativelyDisabled } from "./states";

/** The parent in the composed tree: a shadow root's host stands in for the root. */
export function composedParent(n: Node): Node | null {
  const p = n.parentNode;
  return p instanceof ShadowRoot ? p.host : p;
}

/** Whether inner is el or inside it, shadow trees included. */
export function composedContains(el: Element, inner: Node): boolean {
  for (let n: Node | null = inner; n !== null; n = composedParent(n)) {
    if (n === el) return true;
  }
  return false;
}

/** The focused element, looking into open shadow roots. */
export function deepActiveElement(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** Natively disabled, or aria-disabled on the element or an ancestor (Chrome applies it to descendants). */
export function disabled(el: Element): boolean {
  if (nativelyDisabled(el)) return true;
  for (let n: Node | null = el; n !== null; n = composedParent(n)) {
    if (n instanceof Element && n.getAttribute("aria-disabled") === "true") return true;
  }
  return false;
}

/** A label acts for its control: actions on a label's ref read the control. */
export function controlOf(el: Element): Element {
  return el instanceof HTMLLabelElement && el.control ? el.control : el;
}

/** Whether typing goes into the element: a text field that is not read-only, or an editing host. */
export function editable(el: Element): boolean {
  if (el instanceof HTMLInputElement) {
    return !NOT_TYPED.has(el.type) && !el.readOnly && !el.disabled;
  }
  if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
  return el instanceof HTMLElement && el.isContentEditable;
}

const NOT_TYPED = new Set(["button", "submit", "reset", "image", "checkbox", "radio", "range", "color", "file", "hidden"]);
