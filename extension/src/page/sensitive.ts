// The element form of the sensitive-field rule (src/shared/sensitive.ts,
// the one place the rule lives), for the page agent.
import { appliesTo, isSensitiveField } from "../shared/sensitive";
import { credentialFilled } from "./credential-filled";

/** Inputs and selects only (shared/sensitive.ts appliesTo). */
export function isSensitiveElement(el: Element): boolean {
  if (!(el instanceof HTMLElement) || !appliesTo(el.localName)) return false;
  return isSensitiveField({
    // A page that flips type=password to text to "show" the password
    // usually keeps its autocomplete and name, which still classify it.
    type: el.getAttribute("type") ?? "",
    autocomplete: el.getAttribute("autocomplete") ?? "",
    name: el.getAttribute("name") ?? "",
    id: el.id,
  });
}

/** Whether el's value is left out (snapshots, read-backs, previews): a sensitive field's, or one browser_credentials filled (credential-filled.ts). */
export function hidesValue(el: Element): boolean {
  return isSensitiveElement(el) || credentialFilled(el);
}
