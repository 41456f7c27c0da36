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
import { mayHideShadowRoot } from "./point";
import { isSensitiveElement } from "./sensitive";

export function focusedElement(): Element | null {
  return deepActiveElement();
}

export function focusedField(): FocusedField {
  const el = focusedElement();
  if (el === null) return { sensitive: false, description: "", sealed: false };
  return { sensitive: isSensitiveElement(el), description: describe(el), sealed: sealed(el) };
}

/**
 * Whether focus may be inside a closed shadow root of el: el may hide one
 * and the focus is at or within it (:focus-within follows the flat tree;
 * a body nothing is focused in does not match).
 */
function sealed(el: Element): boolean {
  return mayHideShadowRoot(el) && el.matches(":focus-within");
}
