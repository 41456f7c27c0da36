import { test } from "node:test";
import assert from "node:assert/strict";
import { FakeChrome } from "../../testing/fake-chrome";
import { Ownership } from "../tabs/ownership";
import { Pages } from "./page-tab";
import { ManualClock, PAGE_AGENT_SOURCE } from "../../testing/testkit";
import { networkIdleProbe } from "./wait-net";

test("network idle holds only once no request has been in flight for idle_ms, by the worker's clock", async () => {
  const fake = new FakeChrome();
  const tabId = fake.addTab(fake.addWindow(), "https://a.test/");
  const clock = new ManualClock();
  const log = { info: () => undefined, warn: () => undefined };
  const pages = new Pages(fake, clock, log, new Ownership(fake.storageSession, log), PAGE_AGENT_SOURCE);
  const probe = (): Promise<{ ok: boolean; seen: string }> => pages.use(tabId, (page) => networkIdleProbe(page, 500)());
  const event = async (method: string, requestId: string): Promise<void> => {
    fake.debuggerEvent({ tabId }, method, { requestId });
    await fake.settle();
  };

  await probe();
  await event("Network.requestWillBeSent", "1");
  await event("Network.requestWillBeSent", "2");
  clock.advance(10_000);
  assert.deepEqual(await probe(), { ok: false, seen: "2 requests in flight" });
  await event("Network.loadingFinished", "1");
  clock.advance(10_000);
  assert.deepEqual(await probe(), { ok: false, seen: "1 request in flight" });
  await event("Network.loadingFailed", "2");
  clock.advance(499);
  assert.deepEqual(await probe(), { ok: false, seen: "no request in flight for 499 ms" });
  clock.advance(1);
  assert.deepEqual(await probe(), { ok: true, seen: "no request in flight for 500 ms" });
  await event("Network.requestWillBeSent", "3");
  assert.equal((await probe()).ok, false, "a new request ends the quiet");
});
