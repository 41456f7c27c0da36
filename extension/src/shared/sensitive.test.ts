import { test } from "node:test";
import assert from "node:assert/strict";
import { appliesTo, isSensitiveField, words, type FieldAttributes } from "./sensitive";

const field = (a: Partial<FieldAttributes>): FieldAttributes => ({ type: "text", autocomplete: "", name: "", id: "", ...a });

test("words normalises camelCase, snake_case and brackets", () => {
  assert.equal(words("cardNumber"), "card-number");
  assert.equal(words("card_number"), "card-number");
  assert.equal(words("payment[card][number]"), "payment-card-number");
  assert.equal(words("CVC2"), "cvc2");
});

test("sensitive fields", () => {
  const sensitive: Partial<FieldAttributes>[] = [
    { type: "password" },
    { type: "PASSWORD" },
    { autocomplete: "one-time-code" },
    { autocomplete: "section-pay billing cc-number" },
    { autocomplete: "cc-csc" },
    { autocomplete: "cc-exp-month" },
    { autocomplete: "current-password" },
    { name: "cardNumber" },
    { name: "cc_number" },
    { id: "credit-card-number" },
    { name: "card[cvc]" },
    { name: "cvv" },
    { id: "securityCode" },
    { name: "cc-exp" },
    { name: "otp" },
    { name: "pin" },
  ];
  for (const a of sensitive) assert.equal(isSensitiveField(field(a)), true, JSON.stringify(a));
});

test("ordinary fields", () => {
  const ordinary: Partial<FieldAttributes>[] = [
    { type: "email", autocomplete: "email", name: "email" },
    { name: "card-holder" },
    { name: "discs" },
    { name: "shipping" },
    { id: "expected-date" },
    { autocomplete: "cc-name", name: "cardholder" },
    { name: "topic" },
    { name: "spinner" },
  ];
  for (const a of ordinary) assert.equal(isSensitiveField(field(a)), false, JSON.stringify(a));
});

test("the rule applies to inputs and selects (a card's expiry month and year), never to a textarea or an editable region", () => {
  for (const name of ["input", "INPUT", "select"]) assert.equal(appliesTo(name), true, name);
  for (const name of ["textarea", "div", "option", "button"]) assert.equal(appliesTo(name), false, name);
  assert.equal(isSensitiveField(field({ type: "select-one", autocomplete: "cc-exp-year" })), true);
  assert.equal(isSensitiveField(field({ type: "select-one", name: "card_exp_month" })), true);
});
