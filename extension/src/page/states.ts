// The states and values a snapshot line shows (issue 3): checked, selected,
// expanded, pressed, disabled, required, invalid (with the browser's
// validation message), level, and the value of
// non-sensitive fields. Sensitive fields show [sensitive] and their value
// is never read.

import { headingLevel } from "./roles";
import { hidesValue, isSensitiveElement } from "./sensitive";

// Roles whose checked state is shown.
const CHECKABLE = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "treeitem"]);
// Roles whose selected state is shown.
const SELECTABLE = new Set(["option", "tab", "gridcell", "row", "treeitem", "cell", "columnheader", "rowheader"]);
// Text-like input types whose value is shown after the colon.
const VALUE_ROLES = new Set(["textbox", "searchbox", "spinbutton", "combobox", "slider"]);

/** The bracketed states of a line, each after a space, in a fixed order, without the ref. */
export function statesOf(el: Element, role: string, disabled: boolean): string {
  let out = "";
  if (CHECKABLE.has(role)) {
    const c = checkedState(el);
    if (c === "true") out += " [checked]";
    else if (c === "mixed") out += " [checked=mixed]";
  }
  if (SELECTABLE.has(role) && selected(el)) out += " [selected]";
  const expanded = expandedState(el);
  if (expanded !== undefined) out += expanded ? " [expanded]" : " [expanded=false]";
  const pressed = el.getAttribute("aria-pressed");
  if (pressed === "true") out += " [pressed]";
  else if (pressed === "mixed") out += " [pressed=mixed]";
  if (disabled) out += " [disabled]";
  if (required(el)) out += " [required]";
  out += invalidState(el);
  if (role === "heading") out += ` [level=${headingLevel(el)}]`;
  if (isSensitiveElement(el)) out += " [sensitive]";
  return out;
}

/**
 * "true", "false", "mixed", or undefined. A native checkbox ignores
 * aria-checked but reports indeterminate as mixed (Chrome 156,
 * notes/chromium.md).
 */
export function checkedState(el: Element): "true" | "false" | "mixed" | undefined {
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
    if (el.type === "checkbox" && el.indeterminate) return "mixed";
    return el.checked ? "true" : "false";
  }
  const aria = el.getAttribute("aria-checked");
  if (aria === "true" || aria === "mixed") return aria;
  return aria === null ? undefined : "false";
}

function selected(el: Element): boolean {
  if (el instanceof HTMLOptionElement) return el.selected;
  return el.getAttribute("aria-selected") === "true";
}

function expandedState(el: Element): boolean | undefined {
  const aria = el.getAttribute("aria-expanded");
  if (aria === "true") return true;
  if (aria === "false") return false;
  // A <summary> opens and closes its <details>.
  if (el.localName === "summary" && el.parentElement instanceof HTMLDetailsElement) return el.parentElement.open;
  return undefined;
}

/**
 * aria-invalid, or a form control that failed its constraints after the
 * person used it or tried to submit its form (:user-invalid): Chrome then
 * shows its validation message in a bubble outside the DOM, so the line
 * carries it (issue 11: what appears in response to input is in the
 * snapshot).
 */
function invalidState(el: Element): string {
  if ((el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) && el.matches(":user-invalid")) {
    // A sensitive field's message can tell its value's length.
    return el.validationMessage === "" || hidesValue(el) ? " [invalid]" : ` [invalid=${JSON.stringify(el.validationMessage)}]`;
  }
  return el.getAttribute("aria-invalid") === "true" ? " [invalid]" : "";
}

function required(el: Element): boolean {
  if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
    if (el.required) return true;
  }
  return el.getAttribute("aria-required") === "true";
}

/** Natively disabled: the disabled attribute, a disabled fieldset or optgroup. */
export function nativelyDisabled(el: Element): boolean {
  return el.matches(":disabled");
}

/** The value shown after the colon, or undefined (sensitive fields never have one). */
export function valueOf(el: Element, role: string): string | undefined {
  if (!VALUE_ROLES.has(role)) return undefined;
  if (hidesValue(el)) return undefined;
  if (el instanceof HTMLInputElement) {
    if (el.type === "file") return undefined;
    return el.value === "" ? undefined : el.value;
  }
  if (el instanceof HTMLTextAreaElement) return el.value === "" ? undefined : el.value;
  if (el instanceof HTMLSelectElement) {
    const o = el.selectedOptions[0];
    return o ? o.label : undefined;
  }
  const aria = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
  return aria === null || aria === "" ? undefined : aria;
}
