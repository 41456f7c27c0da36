import { test } from "node:test";
import assert from "node:assert/strict";
import { finish } from "./finish";
import { open } from "./open";
import { kit, LOOK, OTHER } from "../../testing/testkit";
import { watchOwnership } from "../tabs/watch-ownership";

test("finish closes only the requested owned tabs, ungroups the rest, and raises no revocations", async () => {
  const { fake, ctx, events } = kit();
  const win = fake.addWindow({ focused: true });
  watchOwnership(ctx, Promise.resolve());
  const openTab = async (look = LOOK) => (await open(ctx, { task: look, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const a = await openTab();
  const b = await openTab();
  const c = await openTab();
  const otherTask = await openTab(OTHER);
  const mine = fake.addTab(win, "https://user.example/");
  await fake.settle();

  const result = await finish(ctx, { task_id: "t1", close: [a.tab_id, mine, otherTask.tab_id] });
  await fake.settle();

  assert.deepEqual(result, { released: [b.tab_id, c.tab_id], closed: [a.tab_id] });
  assert.ok(!fake.tabMap.has(a.tab_id));
  assert.ok(fake.tabMap.has(mine) && fake.tabMap.has(otherTask.tab_id), "tabs the task did not own stay open");
  assert.equal(fake.tabMap.get(b.tab_id)?.groupId, -1);
  assert.equal(fake.tabMap.get(c.tab_id)?.groupId, -1);
  assert.ok(!fake.groupMap.has(a.group_id), "the task's group is gone");
  assert.equal(fake.tabMap.get(otherTask.tab_id)?.groupId, otherTask.group_id);
  assert.deepEqual(events, []);
  assert.equal(ctx.ownership.task("t1"), undefined);
  assert.ok(!JSON.stringify(fake.storage.get("ownership")).includes('"t1"'), "persisted");
});

test("finish leaves alone a tab the user moved to another group and skips tabs already gone", async () => {
  const { fake, ctx } = kit();
  const win = fake.addWindow({ focused: true });
  const openTab = async () => (await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const moved = await openTab();
  const gone = await openTab();
  const theirs = fake.addGroup(win, [fake.addTab(win, "https://user.example/")]);
  fake.userMoveToGroup(moved.tab_id, theirs);
  fake.userClose(gone.tab_id);
  await fake.settle();

  const result = await finish(ctx, { task_id: "t1", close: [gone.tab_id] });
  assert.deepEqual(result, { released: [moved.tab_id], closed: [] });
  assert.equal(fake.tabMap.get(moved.tab_id)?.groupId, theirs);
  assert.ok(!fake.calls.includes(`tabs.ungroup ${moved.tab_id}`));
});

test("finish leaves no group of the task: what no task owns in its group is ungrouped, never closed", async () => {
  const { fake, ctx, events } = kit();
  const win = fake.addWindow({ focused: true });
  watchOwnership(ctx, Promise.resolve());
  const openTab = async (look = LOOK) => (await open(ctx, { task: look, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const a = await openTab();
  const other = await openTab(OTHER);
  const dragged = fake.addTab(win, "https://user.example/");
  fake.userMoveToGroup(dragged, a.group_id);
  await fake.settle();

  const result = await finish(ctx, { task_id: "t1", close: [a.tab_id] });
  await fake.settle();
  assert.deepEqual(result, { released: [], closed: [a.tab_id] });
  assert.equal(fake.tabMap.get(dragged)?.groupId, -1, "the user's tab is released, not closed");
  assert.ok(!fake.groupMap.has(a.group_id), "no group of the task is left");
  assert.equal(fake.tabMap.get(other.tab_id)?.groupId, other.group_id, "another task's group is left alone");
  assert.deepEqual(events, []);
});

test("finishing an unknown task releases nothing", async () => {
  const { ctx } = kit();
  assert.deepEqual(await finish(ctx, { task_id: "nope", close: [1] }), { released: [], closed: [] });
});
