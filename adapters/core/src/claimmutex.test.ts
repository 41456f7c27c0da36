import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { withClaimMutex } from "./claimmutex";
import { lockContent } from "./liveness";

// A child of the tests below (this file run again with the env set):
// takes the mutex of the directory named, says what happened, exits. The
// wait blocks its event loop, so only a parent can see it does not last.
const child = process.env["CLAIMMUTEX_TEST_CHILD"];
if (child !== undefined) {
  try {
    withClaimMutex(child, () => process.stdout.write("held\n"));
  } catch (e) {
    process.stdout.write(`refused: ${e instanceof Error ? e.message : String(e)}\n`);
  }
  process.exit(0);
}

// take runs a child that takes dir's mutex; its output, or "hung" when it
// still waited after limitMs (far beyond the mutex's own bound).
function take(dir: string, limitMs: number): string {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, CLAIMMUTEX_TEST_CHILD: dir }, timeout: limitMs });
  return r.status === 0 ? r.stdout.toString().trim() : "hung";
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "claimmutex-"));
}

test("a mutex path that can be neither read nor created (a dangling link) is given up on, not spun on forever", () => {
  const dir = tmp();
  fs.symlinkSync(path.join(dir, "nowhere"), path.join(dir, ".claim-mutex"));
  assert.match(take(dir, 10_000), /^refused: adapter state: .*\.claim-mutex could not be created for \d+ ms$/);
});

test("a live holder that hung is broken soon: the agent's event loop is not blocked for long", () => {
  const dir = tmp();
  // This process is alive and holds the mutex, and never releases it.
  fs.writeFileSync(path.join(dir, ".claim-mutex"), lockContent(), { mode: 0o600 });
  assert.equal(take(dir, 8_000), "held");
});
