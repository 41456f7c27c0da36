// What has focus in this frame, for the check the worker makes right
// before every key it dispatches (issue 9: key input whose target or
// focused element at dispatch time is a password, one-time-code or
// payment-card field is refused). The focused element is
// document.activeElement drilled through open shadow roots; each frame
// answers for its own document (the worker asks every frame, a
// cross-site one in its own process included).

import type { FocusedField } from "../shared/page-agent";
import { describe } from "./describe";
import { deepActiveElement } from "./dom";
import { isSensitiveElement } from "./sensitive";

// The HTML elements a shadow root can be attached to (DOM Standard,
// attachShadow), besides custom elements.
const SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav", "p", "section", "span"]);

export function focusedElement(): Element | null {
  return deepActiveElement();
}

export function focusedField(): FocusedField {
  const el = focusedElement();
  if (el === null) return { sensitive: false, description: "", sealed: false };
  return { sensitive: isSensitiveElement(el), description: describe(el), sealed: sealed(el) };
}

/**
 * Whether focus may be inside a closed shadow root of el, which no world
 * but the debugger's DOM domain can enter (el.shadowRoot is null here):
 * el can host a shadow root, shows none, and the focus is at or within it
 * (:focus-within follows the flat tree; a body nothing is focused in
 * does not match).
 */
function sealed(el: Element): boolean {
  if (el.shadowRoot !== null || !(el instanceof HTMLElement)) return false;
  if (!el.localName.includes("-") && !SHADOW_HOSTS.has(el.localName)) return false;
  return el.matches(":focus-within");
}
