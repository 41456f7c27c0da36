// The page side of browser_credentials' fill (issue 13; spec 000's 1Password
// broker): whether a field is fit for a credential value, and writing the
// value there. The one way a value goes into a password field: every
// other input keeps the sensitive-field refusal (sensitive.ts), which
// nothing here changes. A field filled here keeps its value out of
// snapshots and read-backs from then on (hidesValue, sensitive.ts): a
// username in a text field is the broker's value too, which the agent
// never gets back (credential-filled.ts). It is marked as soon as it is
// judged fit, before anything is written: a page that reformats what it
// is given (a username lower-cased, a code spaced out) holds the value
// in another form, which stays hidden all the same.

import type { CredentialHeld, CredentialTarget } from "../shared/page-agent";
import { describe } from "./describe";
import { markFilled } from "./credential-filled";
import { hasFocus, keyField } from "./key-target";
import { visible } from "./visibility";

// Input types a username or a one-time code may be typed into.
const USERNAME_TYPES = new Set(["text", "email", "tel"]);
const CODE_TYPES = new Set(["text", "number", "tel"]);
// Input types that take no text at all.
const NO_TEXT = new Set(["button", "submit", "reset", "image", "checkbox", "radio", "file", "hidden", "range", "color", "date", "time", "datetime-local", "month", "week"]);

function tokens(f: HTMLInputElement): string[] {
  return (f.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/);
}

/**
 * Why the field is not fit for the credential field named, or undefined
 * when it is: a password goes only into type=password; a username into a
 * text, email or tel input, or one marked autocomplete username (never a
 * password input); a code into one marked one-time-code or a text,
 * number or tel input. The field must be shown, enabled and writable.
 */
export function unfit(f: Element, field: string): string | undefined {
  if (!(f instanceof HTMLInputElement)) return "it is not an input field";
  if (f.disabled || f.readOnly) return "it is disabled or read-only";
  if (!f.isConnected || !visible(f)) return "it is not shown";
  const type = f.type;
  switch (field) {
    case "password":
      return type === "password" ? undefined : "a password goes only into a password input (type=password)";
    case "username":
      if (type === "password" || NO_TEXT.has(type)) return "a username goes into a text, email or tel input";
      return USERNAME_TYPES.has(type) || tokens(f).includes("username") ? undefined : "a username goes into a text, email or tel input, or one marked autocomplete=username";
    case "one_time_code":
      if (NO_TEXT.has(type)) return "a one-time code goes into a text, number or tel input";
      return CODE_TYPES.has(type) || tokens(f).includes("one-time-code") ? undefined : "a one-time code goes into a text, number or tel input, or one marked autocomplete=one-time-code";
    default:
      return `there is no credential field ${JSON.stringify(field)}`;
  }
}

/** The prototype's value setter, run from AgentTab's world: a framework that tracks the value property (React) sees the change. */
function put(f: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  if (setter === undefined) f.value = value;
  else setter.call(f, value);
}

/** PageAgent.credentialTarget (contract: shared/page-agent.ts). */
export function credentialTarget(el: Element | null, field: string, value: string | null): CredentialTarget {
  if (el === null || !el.isConnected) return { fit: false, why: "it is no longer in the page", description: "", focused: false };
  const f = keyField(el);
  const description = describe(f);
  const why = unfit(f, field);
  if (why !== undefined || !(f instanceof HTMLInputElement)) return { fit: false, why: why ?? "it is not an input field", description, focused: false };
  markFilled(f);
  f.focus({ preventScroll: true });
  // A number or email input has no text selection (setSelectionRange
  // throws there); select() selects it all wherever it applies.
  f.select();
  if (value !== null) {
    put(f, value);
    f.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertReplacementText" }));
    f.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return { fit: true, description, focused: hasFocus(f) };
}

/** PageAgent.credentialHolds: whether the field holds value, and whether focus is on it. */
export function credentialHolds(el: Element | null, value: string): CredentialHeld {
  if (el === null || !el.isConnected) return { holds: false, focused: false };
  const f = keyField(el);
  return { holds: f instanceof HTMLInputElement && f.value === value, focused: focusOn(f) };
}

/**
 * Whether focus is on f: it is its document's focused element, and each
 * frame it sits in is its parent's. A parent of another origin cannot be
 * asked (frameElement is null there): then not, so the worker clears
 * whatever has focus rather than leave the value where it cannot see.
 */
function focusOn(f: Element): boolean {
  if (!hasFocus(f)) return false;
  for (let w: Window = window; w !== w.parent; w = w.parent) {
    const owner = w.frameElement;
    if (owner === null) return false;
    // The owner's document or shadow root: its activeElement is the owner
    // when focus is in the owner's frame.
    const root = owner.getRootNode();
    if (!("activeElement" in root) || root.activeElement !== owner) return false;
  }
  return true;
}
