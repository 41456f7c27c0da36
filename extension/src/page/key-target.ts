// The target of a keyboard step (type, fill, clear, press): the field keys
// go to, and how to reach it. Source of truth: issue 11 ("a type/fill/press
// into a focusable field that is transparent must work": terminals, code
// editors and rich editors read keys through a focused textarea or input
// with opacity 0; refusing pointer input on transparent targets stays, as
// clickjacking protection, in target.ts) and issue 11 item 4 (date, time
// and other picker inputs are filled from their value format).
//
// The field is the ref's element, a label's control, or, for an editor's
// container, the one field inside it that nobody sees (xterm.js's
// .xterm-helper-textarea: opacity 0, 0×0, left -9999em). A field nobody
// sees is focused by script, never clicked: a click aims at what a person
// sees. The sensitive-field rule holds for whatever the field turns out to
// be (page/sensitive.ts).

import type { FieldValue, KeyMode, KeyReady, KeyTarget, PickResult } from "../shared/page-agent";
import { describe } from "./describe";
import { composedContains, controlOf, deepActiveElement, disabled } from "./dom";
import { hidesValue, isSensitiveElement } from "./sensitive";
import { target } from "./target";
import { opaque, visible } from "./visibility";

// Input types a picker sets (Playwright's fill sets the same ones by
// value): typing into them goes segment by segment in the locale's order,
// so a value format is set whole, as the picker would.
const PICKED = new Set(["date", "time", "datetime-local", "month", "week", "color", "range"]);

// Input types that take no text at all.
const NO_TEXT = new Set(["button", "submit", "reset", "image", "checkbox", "radio", "file", "hidden"]);

/** Whether keys put text into el: a text or picker input, a textarea, an editing host. */
function takesText(el: Element): boolean {
  if (el instanceof HTMLInputElement) return !NO_TEXT.has(el.type);
  if (el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLElement && el.isContentEditable;
}

/** Whether a person sees the field (and can click it): opaque, with a box. */
function seen(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && opaque(el);
}

/**
 * The one field an editor's container reads keys through: the only field
 * inside it that takes text, rendered but unseen. None when the container
 * holds a field a person sees (a form), or several unseen ones.
 */
function hiddenInput(container: Element): Element | null {
  let found: Element | null = null;
  for (const f of container.querySelectorAll("input, textarea, [contenteditable]")) {
    if (!takesText(f)) continue;
    if (seen(f) || found !== null) return null;
    if (visible(f)) found = f;
  }
  return found;
}

/** The element keys go to for a ref's element. */
export function keyField(el: Element): Element {
  const c = controlOf(el);
  if (takesText(c)) return c;
  return hiddenInput(c) ?? c;
}

/** A field's content; never a sensitive field's value. */
export function fieldValue(f: Element): FieldValue {
  let value = "";
  if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) value = f.value;
  else if (f instanceof HTMLElement && f.isContentEditable) value = f.textContent ?? "";
  return hidesValue(f) ? { length: value.length } : { length: value.length, value };
}

function pickerOf(f: Element): string | undefined {
  return f instanceof HTMLInputElement && PICKED.has(f.type) ? f.type : undefined;
}

function writable(f: Element): boolean {
  if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) return takesText(f) && !f.readOnly && !f.disabled;
  return f instanceof HTMLElement && f.isContentEditable;
}

/** Whether focus is in the field (an editable region's descendant counts). */
export function hasFocus(f: Element): boolean {
  const active = deepActiveElement();
  return active !== null && composedContains(f, active);
}

/**
 * The checks before a keyboard step. A field a person sees answers as
 * target() does (the worker clicks it when it lacks focus); one nobody
 * sees is ok when rendered and enabled, to be focused by script
 * (byFocus). When the field has focus already it is readied for mode
 * (ready), saving the worker a call.
 */
export function keyTarget(el: Element | null, mode: KeyMode): KeyTarget {
  if (el === null || !el.isConnected) return target(el);
  const field = keyField(el);
  const sensitive = isSensitiveElement(el) || isSensitiveElement(field);
  const about = { sensitive, editable: writable(field), description: describe(field) };
  const picker = pickerOf(field);
  const shape = { ...(picker === undefined ? {} : { picker }), ...(field instanceof HTMLTextAreaElement || (field instanceof HTMLElement && field.isContentEditable) ? { multiline: true } : {}) };
  let info: KeyTarget;
  if (field === controlOf(el) && seen(field)) {
    info = { ...target(el), ...about, ...shape };
  } else {
    info = { ok: true, x: 0, y: 0, width: 0, height: 0, ...about, ...shape, byFocus: true };
    if (!visible(field) || !visible(el)) info = { ...info, ok: false, reason: "hidden" };
    else if (disabled(field)) info = { ...info, ok: false, reason: "disabled" };
  }
  if (info.ok && !sensitive && mode !== "press" && hasFocus(field)) info.ready = ready(field, mode);
  return info;
}

/** Moves the caret after the last character (type) or selects everything (fill); answers what the field holds. */
function ready(f: Element, mode: KeyMode): FieldValue {
  if (f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement) {
    if (mode === "fill") f.select();
    else {
      // A field type without a text selection (email, number) throws: the
      // caret stays where the click left it.
      try {
        f.setSelectionRange(f.value.length, f.value.length);
      } catch {
        // kept
      }
    }
  } else if (f instanceof HTMLElement && f.isContentEditable) {
    const s = f.ownerDocument.getSelection();
    if (s !== null) {
      s.selectAllChildren(f);
      if (mode === "type") s.collapseToEnd();
    }
  }
  return fieldValue(f);
}

/**
 * After the worker's click (focus false), or instead of it (focus true: a
 * field nobody sees, or press), checks that the field has focus and
 * readies it for mode. A sensitive field is neither focused nor readied.
 */
export function keyReady(el: Element | null, mode: KeyMode, focus: boolean): KeyReady {
  if (el === null || !el.isConnected) return { focused: false };
  const field = keyField(el);
  if (isSensitiveElement(el) || isSensitiveElement(field)) return { focused: false };
  if (focus && !hasFocus(field) && (field instanceof HTMLElement || field instanceof SVGElement)) field.focus({ preventScroll: true });
  if (!hasFocus(field)) return { focused: false };
  return mode === "press" ? { focused: true } : { focused: true, held: ready(field, mode) };
}

/** The key field's content after the step (never a sensitive field's value). */
export function keyValue(el: Element | null): FieldValue {
  return el === null ? { length: 0 } : fieldValue(keyField(el));
}

/**
 * Whether a picker field took the value asked: the browser sanitises one
 * it does not take (HTML's value sanitization algorithm): a date, time,
 * month or week to "", a colour to #000000 (and #RRGGBB to lower case), a
 * range's number to its default, or clamped to min, max and step.
 */
function took(type: string, asked: string, now: string): boolean {
  if (type === "range") return asked.trim() !== "" && Number(now) === Number(asked);
  if (type === "color") return now === asked.trim().toLowerCase();
  return now !== "" || asked === "";
}

/**
 * Sets a picker field's value as its picker does: focus, the value, then
 * input and change (Playwright's fill does the same). The value setter is
 * the prototype's, run from AgentTab's world, so a framework that tracks
 * the value property (React) sees a change. A value the field does not
 * take is undone, with no event: the answer says what it holds again
 * and what the browser made of the value (became).
 */
export function pickValue(el: Element | null, value: string): PickResult {
  if (el === null || !el.isConnected) return { done: "not_accepted", held: { length: 0 } };
  const field = keyField(el);
  if (isSensitiveElement(el) || isSensitiveElement(field)) return { done: "refused", held: { length: 0 } };
  const type = pickerOf(field);
  if (!(field instanceof HTMLInputElement) || type === undefined || !writable(field)) return { done: "not_accepted", held: fieldValue(field) };
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  const put = (v: string): void => {
    if (setter === undefined) field.value = v;
    else setter.call(field, v);
  };
  const before = field.value;
  field.focus({ preventScroll: true });
  put(value);
  const became = field.value;
  if (!took(type, value, became)) {
    put(before);
    return { done: "not_accepted", held: fieldValue(field), became };
  }
  field.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
  return { done: "set", held: fieldValue(field) };
}
