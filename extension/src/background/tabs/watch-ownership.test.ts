import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../methods/open";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { watchOwnership } from "./watch-ownership";

async function owned(k: Kit): Promise<{ tabId: number; groupId: number; windowId: number }> {
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  k.events.length = 0;
  return { tabId: tab.tab_id, groupId: tab.group_id, windowId: tab.window_id };
}

function watched(): Kit {
  const k = kit();
  k.fake.addWindow({ focused: true });
  watchOwnership(k.ctx, Promise.resolve());
  return k;
}

const revoked = (k: Kit) => k.events.filter((e) => e.event === "revoked").map((e) => e.params);

test("closing an owned tab revokes it as closed", async () => {
  const k = watched();
  const { tabId } = await owned(k);
  k.fake.userClose(tabId);
  await k.fake.settle();
  assert.deepEqual(revoked(k), [{ task_id: "t1", tab_id: tabId, reason: "closed" }]);
  assert.equal(k.ctx.ownership.owner(tabId), undefined);
  assert.ok(!JSON.stringify(k.fake.storage.get("ownership")).includes(`[${tabId},`), "persisted");
});

test("ungrouping an owned tab revokes it as ungrouped", async () => {
  const k = watched();
  const { tabId } = await owned(k);
  k.fake.userUngroup(tabId);
  await k.fake.settle();
  assert.deepEqual(revoked(k), [{ task_id: "t1", tab_id: tabId, reason: "ungrouped" }]);
});

test("moving an owned tab into another group revokes it as moved_out", async () => {
  const k = watched();
  const { tabId, windowId } = await owned(k);
  const theirs = k.fake.addGroup(windowId, [k.fake.addTab(windowId, "https://user.example/")]);
  k.fake.userMoveToGroup(tabId, theirs);
  await k.fake.settle();
  assert.deepEqual(revoked(k), [{ task_id: "t1", tab_id: tabId, reason: "moved_out" }]);
});

test("dragging an owned tab to another window revokes it once", async () => {
  const k = watched();
  const { tabId } = await owned(k);
  const other = k.fake.addWindow({ focused: false });
  k.fake.userMoveToWindow(tabId, other);
  await k.fake.settle();
  assert.deepEqual(revoked(k), [{ task_id: "t1", tab_id: tabId, reason: "ungrouped" }]);
});

test("moving the whole group to another window keeps ownership and follows the window", async () => {
  const k = watched();
  const { tabId, groupId } = await owned(k);
  const other = k.fake.addWindow({ focused: false });
  k.fake.userMoveGroupToWindow(groupId, other);
  await k.fake.settle();
  assert.deepEqual(revoked(k), []);
  assert.equal(k.ctx.ownership.owner(tabId)?.tab.windowId, other);
  assert.equal(k.ctx.ownership.latestWindow("t1"), other);
});

test("a user's tab dragged into the task's group is not adopted and not touched", async () => {
  const k = watched();
  const { windowId, groupId } = await owned(k);
  const mine = k.fake.addTab(windowId, "https://user.example/");
  const calls = k.fake.calls.length;
  k.fake.userMoveToGroup(mine, groupId);
  await k.fake.settle();
  assert.equal(k.ctx.ownership.owner(mine), undefined);
  assert.deepEqual(k.events, []);
  assert.equal(k.fake.calls.length, calls, "no Chrome call on the user's tab");
  assert.equal(k.fake.tabMap.get(mine)?.groupId, groupId);
});
