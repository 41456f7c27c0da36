import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../methods/open";
import { servePage } from "../../testing/page-kit";
import { kit, LOOK } from "../../testing/testkit";
import { snapshot } from "./snapshot";

test("a snapshot that hands out no new ids writes no ownership record; one that does, writes it", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  let nextId = 2;
  servePage(k.fake, {
    id: "TOP",
    loaderId: "L1",
    url: "https://a.test/",
    agent: { snapshot: () => ({ text: '- button "Buy" [ref=e1]', truncated: false, nextId, frames: [], title: "Shop", url: "https://a.test/" }) },
  });
  let writes = 0;
  const set = k.fake.storageSession.set;
  k.fake.storageSession.set = (key, value) => {
    writes++;
    return set(key, value);
  };
  const read = () => snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  await read();
  await k.fake.settle();
  const first = writes;
  assert.ok(first > 0, "the first snapshot records the tab's epoch and id counter");
  await read();
  await read();
  await k.fake.settle();
  assert.equal(writes, first, "the same ids again: nothing to write");
  nextId = 5;
  await read();
  await k.fake.settle();
  assert.equal(writes, first + 1);
});

// Issue 11: the press-listener scan costs 2.6–6.8 ms of a small snapshot;
// a document that did not change since it was scanned is not scanned
// again (page/mutations.ts), a changed one is.
test("the listener scan runs again only after the document changed", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  let mutations = 0;
  servePage(k.fake, {
    id: "TOP",
    loaderId: "L1",
    url: "https://a.test/",
    agent: {
      snapshot: () => ({ text: '- button "Buy" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "Shop", url: "https://a.test/" }),
      mutations: () => mutations,
    },
  });
  // A scan starts by asking for the document's main-world object (listeners.ts).
  const scans = () => k.fake.commands.filter((c) => c.method === "Runtime.evaluate" && String((c.params as { expression?: unknown }).expression).includes("getElementsByTagName")).length;
  const read = () => snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  await read();
  await read();
  assert.equal(scans(), 1, "unchanged: scanned once");
  mutations = 3;
  await read();
  assert.equal(scans(), 2, "changed: scanned again");
});
