import assert from "node:assert/strict";
import { test } from "node:test";
import { ErrorCatalogue, OutcomeDispatched } from "../../protocol/generated";
import type { ErrorCode } from "../../protocol/generated";
import { failure } from "./failure";

test("every code in the generated catalogue has a meaning, an outcome and a recovery", () => {
  const codes = Object.keys(ErrorCatalogue) as ErrorCode[];
  assert.ok(codes.length >= 40, `only ${codes.length} codes`);
  for (const code of codes) {
    const e = ErrorCatalogue[code];
    assert.notEqual(e.recovery, "", code);
    assert.notEqual(e.meaning, "", code);
    assert.notEqual(e.outcome, "", code);
  }
});

test("failure takes the catalogue's recovery and outcome, and a site's outcome over it", () => {
  const f = failure("not_owned", "gone");
  assert.deepEqual(f.detail, { code: "not_owned", message: "gone", recovery: ErrorCatalogue.not_owned.recovery, outcome: ErrorCatalogue.not_owned.outcome });
  assert.equal(failure("not_owned", "gone", OutcomeDispatched).detail.outcome, OutcomeDispatched);
});
