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
