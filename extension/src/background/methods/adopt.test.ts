import { test } from "node:test";
import assert from "node:assert/strict";
import { NO_GROUP } from "../../chrome/api";
import { adopt } from "./adopt";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

function userTab(k: Kit): number {
  const win = k.fake.addWindow({ focused: true });
  const id = k.fake.addTab(win, "https://user.example/inbox?q=secret");
  const tab = k.fake.tabMap.get(id);
  assert.ok(tab);
  tab.active = true;
  return id;
}

async function pending(k: Kit): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const [first] = k.ctx.adoptions.list();
    if (first !== undefined) return first.id;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error("no adoption request appeared");
}

test("an allowed adoption puts the user's active tab in the task's group, owned as adopted; the badge comes and goes", async () => {
  const k = kit();
  const tabId = userTab(k);
  const result = adopt(k.ctx, { task: LOOK, timeout_ms: 5000 });
  const id = await pending(k);
  const [req] = k.ctx.adoptions.list();
  assert.deepEqual({ label: req?.taskLabel, origin: req?.origin, tab: req?.tabId }, { label: "Research", origin: "https://user.example", tab: tabId });
  assert.equal(k.fake.badge, "1");
  assert.ok(k.ctx.adoptions.answer(id, true));
  const { tab } = await result;
  assert.equal(tab.tab_id, tabId);
  assert.notEqual(k.fake.tabMap.get(tabId)?.groupId, NO_GROUP);
  assert.equal(k.ctx.ownership.owner(tabId)?.tab.source, "adopted");
  assert.equal(k.fake.badge, "");
});

// A Pause ends a pending request as paused, not needs_user: the user did
// not refuse it, and asking them again is no use until they resume
// (spec 001: Pause rejects waiting work as not started).
test("a denied or unanswered request is needs_user, a paused one paused, and none changes anything", async () => {
  for (const how of ["deny", "timeout", "pause"] as const) {
    const k = kit();
    const tabId = userTab(k);
    const result = adopt(k.ctx, { task: LOOK, timeout_ms: how === "timeout" ? 20 : 5000 });
    const id = await pending(k);
    if (how === "deny") k.ctx.adoptions.answer(id, false);
    if (how === "pause") k.ctx.adoptions.cancelAll();
    const f = await failure(result);
    assert.equal(f.detail.code, how === "pause" ? "paused" : "needs_user", how);
    assert.equal(f.detail.outcome, "not_started");
    assert.equal(k.fake.tabMap.get(tabId)?.groupId, NO_GROUP, `${how}: the tab was grouped`);
    assert.equal(k.ctx.ownership.owner(tabId), undefined);
    assert.ok(!k.fake.calls.includes("tabs.group"), how);
    assert.equal(k.fake.badge, "");
  }
});

test("a tab that fails to group stays open and the user's", async () => {
  const k = kit();
  const tabId = userTab(k);
  k.fake.failNext.set("tabs.group", "Tabs cannot be edited right now");
  const result = adopt(k.ctx, { task: LOOK, timeout_ms: 5000 });
  k.ctx.adoptions.answer(await pending(k), true);
  const f = await failure(result);
  assert.equal(f.detail.code, "group_failed");
  assert.ok(k.fake.tabMap.has(tabId), "the user's tab was closed");
  assert.ok(!k.fake.calls.some((c) => c.startsWith("tabs.remove")));
});
