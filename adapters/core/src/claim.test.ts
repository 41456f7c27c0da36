import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { claimAdapterFile } from "./claim";

test("two clients never share a private file; a dead holder's claim is taken over", () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "claim-"));
  const a = claimAdapterFile(state, "pi");
  const b = claimAdapterFile(state, "pi");
  assert.equal(path.basename(a.capabilityPath), "pi-1.capability");
  assert.equal(path.basename(b.capabilityPath), "pi-2.capability");
  assert.equal(fs.statSync(path.join(state, "adapters")).mode & 0o777, 0o700);
  a.release();
  const c = claimAdapterFile(state, "pi");
  assert.equal(c.capabilityPath, a.capabilityPath, "a released slot is the lowest free one");

  // A process that exited left its lock: the slot is free again.
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
  const lock = path.join(state, "adapters", "omp-1.capability.lock");
  fs.writeFileSync(lock, `${dead} 00\n`);
  assert.equal(path.basename(claimAdapterFile(state, "omp").capabilityPath), "omp-1.capability");
  // A live holder's lock (pid 1) is respected.
  fs.writeFileSync(path.join(state, "adapters", "x-1.capability.lock"), "1 00\n");
  assert.equal(path.basename(claimAdapterFile(state, "x").capabilityPath), "x-2.capability");
  assert.throws(() => claimAdapterFile(state, "../evil"), /is not an adapter name/);
  b.release();
  c.release();
});
