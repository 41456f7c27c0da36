import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { ProtocolError } from "./errors";
import { AgentKeys, isUUIDv7, newUUIDv7, uuidFor } from "./keys";

// The expected UUIDs are agentkeys.go's uuidFor with the same seed (computed by Go).
test("an agent's key maps to the task's UUIDv7 as agentkeys.go maps it", () => {
  const seed = { secret: Buffer.from("0123456789abcdef0123456789abcdef"), unixMs: 1_700_000_000_000 };
  assert.equal(uuidFor(seed, "step-3"), "018bcfe5-6800-74f3-ab9e-c4985e735de5");
  assert.equal(uuidFor(seed, "ключ"), "018bcfe5-6800-7a4a-a122-939a8234ae6f");
});

test("no key is a fresh UUIDv7, a UUIDv7 goes as it is, a bad key is refused", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keys-"));
  const k = new AgentKeys(path.join(dir, "a.keys"));
  const fresh = k.coreKey(undefined);
  assert.ok(isUUIDv7(fresh) && isUUIDv7(newUUIDv7()) && fresh !== k.coreKey(""));
  assert.equal(k.coreKey(fresh), fresh);
  assert.ok(!fs.existsSync(path.join(dir, "a.keys")), "no seed is made for unkeyed calls");
  const mapped = k.coreKey("step-3");
  assert.equal(k.coreKey("step-3"), mapped);
  assert.notEqual(k.coreKey("step-4"), mapped);
  assert.equal(fs.statSync(path.join(dir, "a.keys")).mode & 0o777, 0o600);
  for (const bad of ["x".repeat(129), "a\nb", "a\u0085b"]) {
    assert.throws(() => k.coreKey(bad), (e: unknown) => e instanceof ProtocolError && e.data.code === "invalid_params" && e.data.outcome === "not_started" && /at most 128 bytes/.test(e.data.message));
  }
  // A restarted adapter that kept its task maps as before; one that did not drops the seed.
  const again = new AgentKeys(path.join(dir, "a.keys"));
  again.load(true);
  assert.equal(again.coreKey("step-3"), mapped);
  new AgentKeys(path.join(dir, "a.keys")).load(false);
  assert.ok(!fs.existsSync(path.join(dir, "a.keys")));
});

test("a seed file others can read is not trusted", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keys-"));
  const file = path.join(dir, "a.keys");
  fs.writeFileSync(file, JSON.stringify({ secret: Buffer.alloc(32).toString("base64"), unix_ms: 1 }), { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  assert.throws(() => new AgentKeys(file).load(true), /readable by other users/);
  fs.chmodSync(file, 0o600);
  fs.writeFileSync(file, JSON.stringify({ secret: "c2hvcnQ=", unix_ms: 1 }));
  assert.throws(() => new AgentKeys(file).load(true), /is not a key seed AgentTab wrote/);
});
