import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../chrome/fake";
import { ManualClock } from "../testkit";
import { Debuggers, IDLE_DETACH_MS } from "./debuggers";

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
