import { test } from "node:test";
import assert from "node:assert/strict";
import { kit } from "../../testing/testkit";
import { trapped } from "./child-gesture";
import type { Trap } from "./open-trap";

/** A trap whose arming the test releases, recording what happens to it. */
function fakeTrap(urls: string[] = []): { install: () => Promise<Trap>; arm: () => void; log: string[] } {
  const log: string[] = [];
  let arm: () => void = () => undefined;
  const armed = new Promise<void>((resolve) => (arm = resolve));
  return {
    log,
    arm: () => arm(),
    install: async () => {
      log.push("install");
      await armed;
      log.push("armed");
      return {
        collect: async () => {
          log.push("collect");
          return urls.map((url) => ({ url }));
        },
      };
    },
  };
}

// Issue 10: the checks before a gesture run while the trap is armed (one
// wait instead of two); the input waits for both.
test("the check runs while the trap is armed, and the gesture waits for both", async () => {
  const k = kit();
  const trap = fakeTrap();
  const done = trapped(
    k.ctx,
    1,
    trap.install,
    async () => {
      trap.log.push("check");
      return 7;
    },
    async (checked, armed) => {
      trap.log.push(`gesture ${checked} ${armed}`);
      return "ok";
    },
  );
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(trap.log, ["install", "check"], "the check does not wait for the arming, the gesture does");
  trap.arm();
  assert.equal(await done, "ok");
  assert.deepEqual(trap.log, ["install", "check", "armed", "gesture 7 true", "collect"]);
});

test("a check that refuses runs no gesture, and the trap is still collected", async () => {
  const k = kit();
  const trap = fakeTrap();
  trap.arm();
  let gestures = 0;
  await assert.rejects(
    trapped(k.ctx, 1, trap.install, async () => Promise.reject(new Error("target_covered")), async () => gestures++),
    /target_covered/,
  );
  assert.equal(gestures, 0);
  assert.deepEqual(trap.log, ["install", "armed", "collect"]);
});

test("a trap that cannot be armed refuses a gesture that requires it, and is only logged otherwise", async () => {
  const k = kit();
  const failing = async (): Promise<Trap> => Promise.reject(new Error("no main world"));
  let gestures = 0;
  await assert.rejects(trapped(k.ctx, 1, failing, async () => undefined, async () => gestures++, true), (e: unknown) => e instanceof Error && /not dispatched/.test(e.message));
  assert.equal(gestures, 0);
  assert.equal(await trapped(k.ctx, 1, failing, async () => undefined, async (_c, armed) => armed), false);
  assert.equal(k.warnings.length, 1);
});
