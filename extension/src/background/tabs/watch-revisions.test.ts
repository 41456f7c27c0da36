import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../methods/open";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { watchRevisions } from "./watch-revisions";

async function watched(): Promise<{ k: Kit; tabId: number }> {
  const k = kit();
  k.fake.addWindow({ focused: true });
  watchRevisions(k.ctx, Promise.resolve());
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  k.events.length = 0;
  return { k, tabId: tab.tab_id };
}

test("revisions advance once per top-frame commit, history change and fragment change, on every kind of page", async () => {
  const { k, tabId } = await watched();
  const start = k.ctx.ownership.owner(tabId)?.tab.revision ?? 0;
  k.fake.navigate(tabId, "https://example.com/next", "commit");
  await k.fake.settle();
  k.fake.navigate(tabId, "https://example.com/next?pushed", "history");
  await k.fake.settle();
  k.fake.navigate(tabId, "https://example.com/next?pushed#part", "fragment");
  await k.fake.settle();
  k.fake.navigate(tabId, "https://frame.example/", "commit", 7);
  await k.fake.settle();
  k.fake.navigate(tabId, "chrome-extension://otherextension/page.html", "commit");
  await k.fake.settle();
  k.fake.navigate(tabId, "chrome-extension://otherextension/page.html#two", "fragment");
  await k.fake.settle();
  k.fake.navigate(tabId, "chrome-extension://fakeextensionid/popup.html", "commit");
  await k.fake.settle();
  assert.deepEqual(
    k.events.map((e) => e.params),
    [1, 2, 3, 4, 5, 6].map((n) => ({ tab_id: tabId, revision: start + n })),
  );
});

test("navigation in a tab nobody owns changes nothing", async () => {
  const { k } = await watched();
  const win = [...k.fake.windowMap.keys()][0] ?? 0;
  const mine = k.fake.addTab(win, "https://user.example/");
  k.fake.navigate(mine, "https://user.example/2", "commit");
  await k.fake.settle();
  assert.deepEqual(k.events, []);
});

test("the host is told a new revision before anything else can carry it: the event does not wait for the storage write", async () => {
  const { k, tabId } = await watched();
  // A storage write that never finishes: an answer read from the map now
  // would carry the new revision, so the event must already be on the port
  // (the host refuses an expected revision above the newest it was told).
  k.fake.storageSession.set = () => new Promise<void>(() => undefined);
  k.fake.navigate(tabId, "https://example.com/next", "commit");
  await k.fake.settle();
  const now = k.ctx.ownership.owner(tabId)?.tab.revision;
  assert.deepEqual(k.events.map((e) => e.params), [{ tab_id: tabId, revision: now }]);
});
