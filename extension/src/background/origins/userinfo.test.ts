import { test } from "node:test";
import assert from "node:assert/strict";
// The table the host's withoutUserinfo is tested on too (internal/host/url_secrets_test.go).
import table from "../../../../protocol/testdata/userinfo.json";
import { withoutUserinfo } from "./userinfo";

test("user info is dropped from every URL exactly as the host drops it, and nothing else", () => {
  assert.ok(table.cases.length > 0);
  for (const c of table.cases) assert.equal(withoutUserinfo(c.in), c.want, c.in);
});
