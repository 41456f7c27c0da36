// Which fields are sensitive: their values never leave the page agent and
// input into them (keys, text, a choice of option) is refused (issue 3;
// spec 000 on secrets). The rule is
// decided from attributes only, so it is the same before and after the
// page fills the field, and the same wherever the attributes are read:
// from the element in the page agent (page/sensitive.ts), and from a
// DOM.Node the service worker's debugger describes (act/key-guard.ts,
// closed shadow roots). Erring towards "sensitive" is the safe side.

// The elements the rule applies to: inputs, and selects, since a card's
// expiry month and year are usually <select>s (autocomplete cc-exp-month,
// cc-exp-year); their selected value is the secret (spec 000: secret field
// values are left out). A textarea or an editable region never is one here.
const FIELD_ELEMENTS = new Set(["input", "select"]);

/** Whether the rule applies to an element of this local name. */
export function appliesTo(localName: string): boolean {
  return FIELD_ELEMENTS.has(localName.toLowerCase());
}

/** The attributes the classification reads. */
export interface FieldAttributes {
  type: string;
  autocomplete: string;
  name: string;
  id: string;
}

// Autocomplete tokens (HTML "autofill detail tokens") that name secrets.
const SECRET_AUTOCOMPLETE = new Set([
  "current-password",
  "new-password",
  "one-time-code",
  "cc-number",
  "cc-csc",
  "cc-exp",
  "cc-exp-month",
  "cc-exp-year",
]);

// Field names and ids that clearly say card number, security code,
// card expiry or one-time code, matched on the normalised form (see words).
const SECRET_NAME = new RegExp(
  [
    "(^|-)(cc|card|credit-card|creditcard|debit-card)-?(num|number|no|nr)($|-)",
    "(^|-)(cardnumber|ccnumber|ccnum|cardnum|card-pan)($|-)",
    "(^|-)(cvc|cvv|csc|cvc2|cvv2|cvn)($|-)",
    "(^|-)(card|cc)-?(code|cvc|cvv|csc|security-code|verification)($|-)",
    "(^|-)security-code($|-)",
    "(^|-)(cc|card)-?exp",
    "(^|-)(otp|totp|one-time-code|onetimecode|one-time-password)($|-)",
    "(^|-)(password|passwd|pwd|passcode|pin)($|-)",
  ].join("|"),
);

/**
 * Normalises a name or id to lower-case words joined by "-":
 * "cardNumber", "card_number", "card[number]" all become "card-number".
 */
export function words(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Whether a field with these attributes holds a password, one-time code or payment-card data. */
export function isSensitiveField(a: FieldAttributes): boolean {
  if (a.type.toLowerCase() === "password") return true;
  for (const token of a.autocomplete.toLowerCase().split(/\s+/)) {
    if (SECRET_AUTOCOMPLETE.has(token)) return true;
  }
  return secretName(a.name) || secretName(a.id);
}

function secretName(s: string): boolean {
  return s !== "" && SECRET_NAME.test(words(s));
}
