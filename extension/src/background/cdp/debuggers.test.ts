import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import { ManualClock } from "../../testing/testkit";
import { CodeDebuggerUnavailable, OutcomeNotStarted } from "../../protocol/generated";
import { Failure } from "../native/failure";
import { Debuggers, IDLE_DETACH_MS, REFUSAL_RETRY_MS } from "./debuggers";

test("a held attachment is not detached for idleness; let go, it is", async () => {
  const fake = new FakeChrome();
  const tabId = fake.addTab(fake.addWindow(), "https://a.test/");
  const clock = new ManualClock();
  const debuggers = new Debuggers(fake, clock, { info: () => undefined, warn: () => undefined });
  await debuggers.hold(tabId);
  await debuggers.use(tabId, (s) => s.send("Runtime.evaluate"));
  clock.advance(IDLE_DETACH_MS * 2);
  await fake.settle();
  assert.ok(fake.attachedTabs.has(tabId));
  assert.deepEqual(debuggers.heldTabs(), [tabId]);
  debuggers.unhold(tabId);
  clock.advance(IDLE_DETACH_MS);
  await fake.settle();
  assert.equal(fake.attachedTabs.has(tabId), false);
  assert.deepEqual(debuggers.heldTabs(), []);
});

/** A tab whose first attach Chrome refuses, on a fake clock; attaches counts the attach calls. */
async function refusedTab(): Promise<{ fake: FakeChrome; clock: ManualClock; debuggers: Debuggers; tabId: number; attaches: () => number }> {
  const fake = new FakeChrome();
  const tabId = fake.addTab(fake.addWindow(), "https://a.test/");
  const clock = new ManualClock();
  const debuggers = new Debuggers(fake, clock, { info: () => undefined, warn: () => undefined });
  const attaches = (): number => fake.calls.filter((c) => c === `debugger.attach ${tabId}`).length;
  fake.failNext.set("debugger.attach", "Cannot attach to this target.");
  await assertUnavailable(debuggers, tabId);
  assert.equal(attaches(), 1);
  return { fake, clock, debuggers, tabId, attaches };
}

async function assertUnavailable(debuggers: Debuggers, tabId: number): Promise<void> {
  await assert.rejects(
    debuggers.use(tabId, (s) => s.send("Runtime.evaluate")),
    (e: unknown) => e instanceof Failure && e.detail.code === CodeDebuggerUnavailable && e.detail.outcome === OutcomeNotStarted,
  );
}

test("Chrome's refusal is repeated without a new attach until REFUSAL_RETRY_MS have passed, by the worker's clock", async () => {
  const { fake, clock, debuggers, tabId, attaches } = await refusedTab();
  clock.advance(REFUSAL_RETRY_MS - 1_000);
  await assertUnavailable(debuggers, tabId);
  assert.equal(attaches(), 1, "no attach (and no debugging banner) within the refusal's time");
  assert.equal(fake.attachedTabs.has(tabId), false);
  clock.advance(1_000);
  await debuggers.use(tabId, (s) => s.send("Runtime.evaluate"));
  assert.equal(attaches(), 2, "tried again once the time has passed");
  assert.ok(fake.attachedTabs.has(tabId));
});

test("Chrome's refusal is forgotten when the tab navigates", async () => {
  const { fake, clock, debuggers, tabId, attaches } = await refusedTab();
  clock.advance(1_000);
  fake.navigate(tabId, "https://a.test/next", "commit");
  await fake.settle();
  await debuggers.use(tabId, (s) => s.send("Runtime.evaluate"));
  assert.equal(attaches(), 2);
});
