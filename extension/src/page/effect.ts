// The page side of the Commit classifier: which control a step would
// activate, its description for the rules (shared/effects.ts), the
// canonical descriptor the worker fingerprints, and the preview the human
// reviews in the popup (spec 000: Commit; issue 12). Reads the DOM only.

import { NO_EFFECT, type EffectPreview, type EffectReport } from "../shared/page-agent";
import { classifyEffect, type EffectTarget } from "../shared/effects";
import { keyField } from "./key-target";
import { LabelMap } from "./labels";
import { Namer } from "./name";
import { isFrameOwner } from "./point";
import { roleOf, type RoleContext } from "./roles";
import { hidesValue } from "./sensitive";
import { StyleIndex } from "./style-index";
import { clip, squash } from "./text";
import { visible } from "./visibility";

const ROLE_CONTEXT: RoleContext = { presentationalTable: false, listItems: true, sectioning: true, grid: false };
const PREVIEW_FIELDS = 20;
const PREVIEW_CHARS = 120;
const HINT_CLASSES = 8;
const HINT_CHARS = 60;
// How far up from a form-less control (a chat box's Send button) the
// preview looks for the fields it sends.
const CONTEXT_LEVELS = 4;
// How far up from a chat box Enter is sent in the classifier looks for
// the box's Send button (Slack, WhatsApp Web: Enter sends, no form).
const NEARBY_LEVELS = 6;
const NEARBY_BUTTONS = 20;

// What activates as a command when clicked: the element itself or the
// nearest of these around it (a click on a button's icon is the button's).
const COMMAND = [
  "button",
  'input[type="submit" i]',
  'input[type="image" i]',
  'input[type="button" i]',
  'input[type="reset" i]',
  "a[href]",
  '[role="button"]',
  '[role="link"]',
  '[role="menuitem"]',
  '[role="menuitemcheckbox"]',
  '[role="menuitemradio"]',
].join(",");

// Field types the preview lists (not buttons, not hidden inputs).
const NOT_FIELDS = new Set(["hidden", "submit", "button", "reset", "image"]);

/**
 * The report for the step's target el: ref's element, or with ref null
 * the document's focused element (a press without a ref: the keys go
 * where focus is). A key goes to ref's key field (key-target.ts), as the
 * press or type step sends it there.
 */
export function effect(ref: string | null, el: Element | null, press: string | null): EffectReport {
  if (ref === null) {
    // Nothing focused takes the key, and a focused frame's owner passes
    // it to the frame inside, whose own agent answers (the worker asks
    // every frame).
    if (el === null || unfocused(el) || isFrameOwner(el)) return NO_EFFECT;
  } else if (el === null || !el.isConnected) {
    throw new Error("the ref does not resolve in this document");
  }
  const namer = new Namer(new LabelMap(), new StyleIndex());
  const key = press === null ? "" : keyOf(press);
  const at = key === "" || ref === null ? el : keyField(el);
  const field = key === "" ? "" : fieldType(at);
  const control = deciding(at, key, field, namer);
  const target = describeTarget(control, key, field, namer);
  const match = classifyEffect(target);
  return {
    effect: match?.effect ?? null,
    rule: match?.rule ?? null,
    descriptor: canonical(ref, target),
    preview: preview(control.el, target.name, namer),
  };
}

/** The document's focus rests nowhere: on its body (unless the body is an editor's), or on its root. */
function unfocused(el: Element): boolean {
  const doc = el.ownerDocument;
  return el === doc.documentElement || (el === doc.body && !(el instanceof HTMLElement && el.isContentEditable));
}

/** The control that decides the effect, and whether it submits a form. */
interface Deciding {
  el: Element;
  submits: boolean;
  /** Enter in a field of a form without a submit button: the form itself. */
  form?: HTMLFormElement;
}

function deciding(el: Element, key: string, field: string, namer: Namer): Deciding {
  if (key === "Enter" && field !== "") {
    // Enter in a single-line field submits its form through the form's
    // default button (HTML "implicit submission"), which decides.
    if (el instanceof HTMLInputElement && el.form !== null) {
      const button = defaultButton(el.form);
      return button !== null ? { el: button, submits: true } : { el, submits: true, form: el.form };
    }
    // Enter in a chat box sends through the box's Send button.
    const nearby = nearbySend(el, namer);
    if (nearby !== null) return { el: nearby, submits: false };
    return { el, submits: false };
  }
  const control = el.closest(COMMAND) ?? el;
  return { el: control, submits: submits(control) };
}

/** The key of a press step's chord ("Control+Enter" → "Enter"; " " → "Space"). */
function keyOf(press: string): string {
  const parts = press.split("+");
  const last = parts[parts.length - 1] ?? "";
  return last === " " || last === "" || last === "Spacebar" ? "Space" : last;
}

/** The kind of field a key goes into: an input's type, "textarea", "contenteditable", or "" for no field. */
function fieldType(el: Element): string {
  if (el instanceof HTMLInputElement) return NOT_FIELDS.has(el.type) || el.type === "checkbox" || el.type === "radio" ? "" : el.type;
  if (el instanceof HTMLTextAreaElement) return "textarea";
  if (el instanceof HTMLElement && el.isContentEditable) return "contenteditable";
  return "";
}

function submits(el: Element): boolean {
  if (el instanceof HTMLButtonElement) return el.type === "submit" && el.form !== null;
  if (el instanceof HTMLInputElement) return (el.type === "submit" || el.type === "image") && el.form !== null;
  return false;
}

function defaultButton(form: HTMLFormElement): Element | null {
  for (const el of form.elements) if (submits(el)) return el;
  return null;
}

function nearbySend(el: Element, namer: Namer): Element | null {
  let scope: Element | null = el.parentElement;
  for (let level = 0; scope !== null && level < NEARBY_LEVELS; level++, scope = scope.parentElement) {
    const buttons = scope.querySelectorAll('button, [role="button"], input[type="submit" i]');
    if (buttons.length === 0) continue;
    let seen = 0;
    for (const b of buttons) {
      if (++seen > NEARBY_BUTTONS) break;
      const m = classifyEffect(describeTarget({ el: b, submits: submits(b) }, "", "", namer));
      if (m !== null && (m.effect === "send" || m.effect === "publish")) return b;
    }
    return null;
  }
  return null;
}

function formOf(d: Deciding): HTMLFormElement | null {
  if (d.form !== undefined) return d.form;
  const el = d.el;
  if (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) return el.form;
  return el.closest("form");
}

function describeTarget(d: Deciding, key: string, field: string, namer: Namer): EffectTarget {
  const el = d.el;
  const form = formOf(d);
  const role = d.form !== undefined ? "form" : roleOf(el, ROLE_CONTEXT);
  let name = d.form !== undefined ? "" : namer.name(el, role).name;
  // A clickable div or span: its content names it, as a button's would.
  if (name === "" && (role === "generic" || role === "none")) name = clip(namer.name(el, "button").name, PREVIEW_CHARS);
  const type = el instanceof HTMLInputElement || el instanceof HTMLButtonElement ? el.type.toLowerCase() : "";
  return {
    tag: el.localName,
    role,
    name,
    type,
    navigates: navigates(el),
    submits: d.submits,
    press: key,
    inputType: field,
    formAction: form === null ? "" : action(el, form),
    formMethod: form === null ? "" : method(el, form),
    formInputTypes: form === null ? [] : inputTypes(form),
    formAutocomplete: form === null ? [] : cardTokens(form),
    hints: hints(el),
  };
}

function navigates(el: Element): boolean {
  if (!(el instanceof HTMLAnchorElement) || !el.hasAttribute("href")) return false;
  const href = (el.getAttribute("href") ?? "").trim();
  return href !== "" && !href.startsWith("#") && !/^javascript:/i.test(href);
}

/** Origin and path of where the form goes: no query, no fragment. */
function action(el: Element, form: HTMLFormElement): string {
  // A button's formAction property is the document's URL when it has no
  // formaction attribute (Chromium 156), not its form's action.
  const own = el instanceof HTMLButtonElement || el instanceof HTMLInputElement ? el.getAttribute("formaction") : null;
  const raw = own !== null && own.trim() !== "" ? own : form.action;
  try {
    const u = new URL(raw, document.baseURI);
    return u.origin + u.pathname;
  } catch {
    return "";
  }
}

// Frameworks that tunnel other methods through POST: Rails, Laravel and
// Symfony put the method in a hidden _method field.
const OVERRIDES = new Set(["delete", "put", "patch"]);

function method(el: Element, form: HTMLFormElement): string {
  const override = form.querySelector('input[type="hidden" i][name="_method"]');
  if (override instanceof HTMLInputElement && OVERRIDES.has(override.value.toLowerCase())) return override.value.toLowerCase();
  const own = el instanceof HTMLButtonElement || el instanceof HTMLInputElement ? el.getAttribute("formmethod") : null;
  return (own ?? form.getAttribute("method") ?? "").toLowerCase();
}

function inputTypes(form: HTMLFormElement): string[] {
  const types = new Set<string>();
  for (const f of form.elements) {
    if (f instanceof HTMLInputElement && !NOT_FIELDS.has(f.type)) types.add(f.type);
    else if (f instanceof HTMLTextAreaElement) types.add("textarea");
    else if (f instanceof HTMLSelectElement) types.add("select");
  }
  return [...types].sort();
}

function cardTokens(form: HTMLFormElement): string[] {
  const tokens = new Set<string>();
  for (const f of form.elements) {
    for (const t of (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/)) if (t.startsWith("cc-")) tokens.add(t);
  }
  return [...tokens].sort();
}

const HINT_ATTRIBUTES = ["data-method", "data-turbo-method", "data-action", "data-testid", "data-test", "data-qa", "name", "id"];

function hints(el: Element): string[] {
  const out: string[] = [];
  for (const a of HINT_ATTRIBUTES) {
    const v = el.getAttribute(a);
    if (v !== null && v.trim() !== "") out.push(a + ":" + clip(v.trim(), HINT_CHARS));
  }
  let n = 0;
  for (const c of el.classList) {
    if (n++ >= HINT_CLASSES) break;
    out.push("class:" + clip(c, HINT_CHARS));
  }
  return out;
}

/** The descriptor: the target's fields in a fixed key order, with the ref (null: the focused element). */
function canonical(ref: string | null, t: EffectTarget): string {
  return JSON.stringify({
    formAction: t.formAction,
    formAutocomplete: t.formAutocomplete,
    formInputTypes: t.formInputTypes,
    formMethod: t.formMethod,
    hints: t.hints,
    inputType: t.inputType,
    name: t.name,
    navigates: t.navigates,
    press: t.press,
    ref,
    role: t.role,
    submits: t.submits,
    tag: t.tag,
    type: t.type,
  });
}

// ---------------------------------------------------------------------------
// The preview.

function preview(control: Element, name: string, namer: Namer): EffectPreview {
  return { control: clip(name, PREVIEW_CHARS), fields: fieldsOf(control, namer) };
}

function fieldsOf(control: Element, namer: Namer): EffectPreview["fields"] {
  const form = control instanceof HTMLFormElement ? control : control instanceof HTMLButtonElement || control instanceof HTMLInputElement ? control.form ?? control.closest("form") : control.closest("form");
  const candidates = form !== null ? [...form.elements] : contextFields(control);
  const out: EffectPreview["fields"] = [];
  for (const f of candidates) {
    if (out.length >= PREVIEW_FIELDS) break;
    const row = fieldRow(f, namer);
    if (row !== null) out.push(row);
  }
  return out;
}

/** A form-less control's fields: those of the nearest ancestor that has any. */
function contextFields(control: Element): Element[] {
  let scope: Element | null = control.parentElement;
  for (let level = 0; scope !== null && level < CONTEXT_LEVELS; level++, scope = scope.parentElement) {
    const found = [...scope.querySelectorAll('input, textarea, select, [contenteditable=""], [contenteditable="true" i], [contenteditable="plaintext-only" i]')];
    if (found.length > 0) return found;
  }
  // The control itself may be the field (Enter in a chat box nothing else sends).
  return control instanceof HTMLElement && control.isContentEditable ? [control] : [];
}

function fieldRow(f: Element, namer: Namer): EffectPreview["fields"][number] | null {
  if (f instanceof HTMLInputElement && NOT_FIELDS.has(f.type)) return null;
  const isField = f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement || f instanceof HTMLSelectElement || (f instanceof HTMLElement && f.isContentEditable);
  if (!isField || !visible(f)) return null;
  // An editable region inside another one is part of it.
  if (f instanceof HTMLElement && f.isContentEditable && f.parentElement?.isContentEditable === true) return null;
  const label = clip(namer.name(f, roleOf(f, ROLE_CONTEXT)).name, PREVIEW_CHARS);
  if (hidesValue(f)) return { label, value: "", sensitive: true };
  return { label, value: clip(valueOf(f), PREVIEW_CHARS), sensitive: false };
}

function valueOf(f: Element): string {
  if (f instanceof HTMLInputElement) {
    if (f.type === "checkbox" || f.type === "radio") return f.checked ? "checked" : "not checked";
    if (f.type === "file") return [...(f.files ?? [])].map((file) => file.name).join(", ");
    return f.value;
  }
  if (f instanceof HTMLTextAreaElement) return f.value;
  if (f instanceof HTMLSelectElement) return [...f.selectedOptions].map((o) => squash(o.label)).join(", ");
  return f instanceof HTMLElement ? squash(f.innerText) : "";
}
