// Input for the scripting route (spec 000: when Chrome refuses the
// debugger, top-frame page work goes through this agent injected with the
// optional scripting permission). Scripted actions dispatch DOM events
// without Chrome's user activation, so a page that requires a trusted
// gesture can ignore them; the checks before them are the debugger
// route's (hidden, transparent, disabled, detached; sensitive fields).

import type { TargetInfo } from "../shared/page-agent";
import { keyField, keyTarget } from "./key-target";
import { target } from "./target";

/**
 * Clicks the element with DOM events after the usual checks; answers what
 * the checks saw. navigation is where the worker checked (against the
 * origin policy) that the click would go: a page that re-aimed the link or
 * form since then is not clicked.
 */
export function domClick(el: Element | null, navigation: string | null): TargetInfo {
  const info = target(el);
  if (info.ok && navigationTarget(el) !== navigation) return { ...info, ok: false, reason: "re_aimed" };
  if (info.ok && el instanceof HTMLElement) el.click();
  else if (info.ok && el !== null) el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, composed: true }));
  return info;
}

/**
 * Sets a text field's value (append: after what it holds) the way a
 * page's own script would, with input and change events; refused for a
 * sensitive field or one that does not take typing. The field is a
 * keyboard step's (key-target.ts): a label's control, or an editor's
 * hidden input, which may be transparent.
 */
export function domSetValue(el: Element | null, text: string, append: boolean): TargetInfo {
  const info = keyTarget(el, "press");
  if (!info.ok || el === null || info.sensitive || info.editable !== true) return { ...info, ok: false };
  const c = keyField(el);
  if (c instanceof HTMLInputElement || c instanceof HTMLTextAreaElement) {
    c.focus();
    // The prototype's setter: frameworks that track the value property see the change.
    const proto = c instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    const set = Object.getOwnPropertyDescriptor(proto, "value")?.set;
    const value = append ? c.value + text : text;
    if (set) set.call(c, value);
    else c.value = value;
  } else if (c instanceof HTMLElement) {
    c.focus();
    c.textContent = append ? (c.textContent ?? "") + text : text;
  }
  c.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  c.dispatchEvent(new Event("change", { bubbles: true }));
  return info;
}

/**
 * Where a click on the element would navigate the document by itself: the
 * URL of the link it is in, or of the form a submit button sends (its
 * formaction, else the form's action). null when neither: script handlers
 * can still navigate, which the origin guard follows.
 */
export function navigationTarget(el: Element | null): string | null {
  if (el === null) return null;
  const link = el.closest("a[href], area[href]");
  if (link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement) return link.href;
  const button = el.closest("button, input");
  if ((button instanceof HTMLButtonElement || button instanceof HTMLInputElement) && button.form !== null) {
    const submits = button instanceof HTMLButtonElement ? button.type === "submit" : button.type === "submit" || button.type === "image";
    // formAction is the document's URL when the attribute is absent (never
    // empty), so the attribute decides.
    if (submits) return button.hasAttribute("formaction") ? button.formAction : formAction(button.form);
  }
  return null;
}

/**
 * The form's action URL as the browser resolves it: the attribute against
 * the document's base (none: the document itself). Read through
 * Element.prototype, because a control named "action" (or
 * "getAttribute") shadows the form's own property.
 */
function formAction(form: HTMLFormElement): string {
  const raw = Element.prototype.getAttribute.call(form, "action") ?? "";
  try {
    return new URL(raw, document.baseURI).href;
  } catch {
    return document.baseURI;
  }
}
