// What has focus in this frame, for the check the worker makes right
// before every key it dispatches (issue 9: key input whose target or
// focused element at dispatch time is a password, one-time-code or
// payment-card field is refused). The focused element is
// document.activeElement drilled through open shadow roots; each frame
// answers for its own document (the worker asks every frame, a
// cross-site one in its own process included). When focus is in a child
// frame, this document's focused element is that frame's owner (the
// <iframe>): it says so, and the worker refuses when it did not ask the
// frame inside (key-guard.ts).

import type { FocusedField } from "../shared/page-agent";
import { describe } from "./describe";
import { deepActiveElement } from "./dom";
import { isFrameOwner, mayHideShadowRoot } from "./point";
import { isSensitiveElement } from "./sensitive";

export function focusedElement(): Element | null {
  return deepActiveElement();
}

export function focusedField(): FocusedField {
  const el = focusedElement();
  if (el === null) return { sensitive: false, description: "", sealed: false, frame: false };
  const f = { sensitive: isSensitiveElement(el), sealed: sealed(el), frame: isFrameOwner(el) };
  // Described only when the worker may name it in a refusal: describing
  // (role and name) costs more than the rest, and a type step asks after
  // every key (issue 11).
  return { ...f, description: f.sensitive || f.sealed || f.frame ? describe(el) : "" };
}

/**
 * Whether focus may be inside a closed shadow root of el: el may hide one
 * and the focus is at or within it (:focus-within follows the flat tree;
 * a body nothing is focused in does not match).
 */
function sealed(el: Element): boolean {
  return mayHideShadowRoot(el) && el.matches(":focus-within");
}
