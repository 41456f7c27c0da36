// The form-field functions: select options (never in a sensitive select),
// read checked state, focus. Keyboard steps' fields: key-target.ts.

import { isSensitiveElement } from "./sensitive";
import { checkedState } from "./states";
import { controlOf, deepActiveElement, composedContains, disabled } from "./dom";
import { squash } from "./text";

function hasFocus(el: Element | null): boolean {
  if (el === null || !el.isConnected) return false;
  const active = deepActiveElement();
  return active !== null && (composedContains(controlOf(el), active) || composedContains(el, active));
}

export function focus(el: Element | null): boolean {
  if (el === null || !el.isConnected) return false;
  const c = controlOf(el);
  if (c instanceof HTMLElement || c instanceof SVGElement) c.focus();
  return hasFocus(el);
}

/**
 * Selects the options whose label (trimmed text) or value matches, and
 * only those; dispatches input and change as a user's choice would.
 */
export function select(el: Element | null, values: string[]): { ok: boolean; selected: string[]; error?: string } {
  if (el === null || !el.isConnected) return { ok: false, selected: [], error: "the element is detached" };
  const sel = controlOf(el);
  if (!(sel instanceof HTMLSelectElement)) return { ok: false, selected: [], error: "the element is not a <select>" };
  // The worker refuses it first (sensitive_field); this holds when the page changed it since.
  if (isSensitiveElement(sel)) return { ok: false, selected: [], error: "the select is a payment-card field; AgentTab chooses no option in it" };
  if (disabled(sel)) return { ok: false, selected: [], error: "the select is disabled" };
  if (values.length === 0) return { ok: false, selected: [], error: "no option given" };
  if (!sel.multiple && values.length > 1) return { ok: false, selected: [], error: "the select takes one option" };
  const options = [...sel.options];
  const chosen: HTMLOptionElement[] = [];
  for (const v of values) {
    const want = squash(v);
    const o = options.find((o) => squash(o.label) === want) ?? options.find((o) => o.value === v);
    if (!o) {
      const known = options.slice(0, 20).map((o) => JSON.stringify(squash(o.label)));
      return { ok: false, selected: [], error: `no option ${JSON.stringify(v)}; options: ${known.join(", ")}` };
    }
    if (o.disabled) return { ok: false, selected: [], error: `option ${JSON.stringify(v)} is disabled` };
    chosen.push(o);
  }
  for (const o of options) o.selected = chosen.includes(o);
  sel.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  return { ok: true, selected: [...sel.selectedOptions].map((o) => squash(o.label)) };
}

export function checked(el: Element | null): boolean | undefined {
  if (el === null) return undefined;
  const c = checkedState(controlOf(el));
  return c === undefined ? undefined : c === "true";
}
