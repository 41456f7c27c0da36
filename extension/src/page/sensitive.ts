// The element form of the sensitive-field rule (src/shared/sensitive.ts,
// the one place the rule lives), for the page agent.
import { isSensitiveField } from "../shared/sensitive";

/** Inputs only (a textarea or editable region is never a card or password field here). */
export function isSensitiveElement(el: Element): boolean {
  if (!(el instanceof HTMLInputElement)) return false;
  return isSensitiveField({
    // A page that flips type=password to text to "show" the password
    // usually keeps its autocomplete and name, which still classify it.
    type: el.type,
    autocomplete: el.getAttribute("autocomplete") ?? "",
    name: el.getAttribute("name") ?? "",
    id: el.id,
  });
}
