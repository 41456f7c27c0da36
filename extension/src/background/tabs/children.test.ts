import { test } from "node:test";
import assert from "node:assert/strict";
import type { ChildNotice } from "../../protocol/generated";
import { finish } from "../methods/finish";
import { open } from "../methods/open";
import { openChild, watchChildren } from "./children";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

async function ownedOpener(k: Kit): Promise<number> {
  k.fake.addWindow({ focused: true });
  watchChildren(k.ctx, Promise.resolve());
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  k.fake.calls.length = 0;
  return tab.tab_id;
}

function children(k: Kit): ChildNotice[] {
  return k.events.filter((e) => e.event === "child").map((e) => e.params as ChildNotice);
}

test("a child Chrome reports twice is taken into the opener's group once, and the watching step lists it", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  const watch = k.ctx.children.watch(opener);
  const child = k.fake.pageOpens(opener, "https://a.test/child");
  await k.fake.settle();
  const reports = await watch.stop(k.ctx.clock);

  assert.deepEqual(reports, [{ tab_id: child, url: "https://a.test/child", owned: true }]);
  const owner = k.ctx.ownership.owner(child);
  assert.equal(owner?.taskId, LOOK.task_id);
  assert.equal(owner?.tab.source, "child");
  assert.equal(k.fake.tabMap.get(child)?.groupId, k.ctx.ownership.owner(opener)?.tab.groupId);
  assert.deepEqual(children(k).map((n) => [n.task_id, n.opener_tab_id, n.tab.tab_id]), [[LOOK.task_id, opener, child]]);
  assert.deepEqual(k.fake.calls, ["tabs.group"]);
});

test("a noopener child is still found through its navigation target", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  const child = k.fake.pageOpens(opener, "https://a.test/n", { noopener: true });
  await k.fake.settle();
  assert.equal(k.ctx.ownership.owner(child)?.tab.source, "child");
});

test("a tab opened by a page nobody owns is left alone", async () => {
  const k = kit();
  await ownedOpener(k);
  const win = k.fake.addWindow();
  const users = k.fake.addTab(win, "https://user.test/");
  const child = k.fake.pageOpens(users, "https://user.test/popup");
  await k.fake.settle();
  assert.equal(k.ctx.ownership.owner(child), undefined);
  assert.deepEqual(k.fake.calls, []);
  assert.deepEqual(children(k), []);
});

test("a child Chrome cannot group stays open and unowned, reported child_not_owned, never closed", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  const watch = k.ctx.children.watch(opener);
  k.fake.failNext.set("tabs.group", "Grouping is not supported by tabs in this window.");
  const child = k.fake.pageOpens(opener, "https://a.test/child");
  await k.fake.settle();
  const [report] = await watch.stop(k.ctx.clock);

  assert.equal(report?.owned, false);
  assert.equal(report?.error?.code, "child_not_owned");
  assert.match(report?.error?.message ?? "", /stays open/);
  assert.ok(k.fake.tabMap.has(child), "the child is still open");
  assert.equal(k.ctx.ownership.owner(child), undefined);
  assert.ok(!k.fake.calls.some((c) => c.startsWith("tabs.remove")), "nothing was closed");
  assert.deepEqual(children(k), []);
});

test("a child whose task finishes while it is being grouped is let go again: no record or group of the finished task comes back", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  const watch = k.ctx.children.watch(opener);
  // browser_finish runs on the task's queue; a child Chrome reports is taken
  // in outside it, so finish can come between the grouping and the record.
  const group = k.fake.tabs.group;
  k.fake.tabs.group = async (options) => {
    const groupId = await group(options);
    await finish(k.ctx, { task_id: LOOK.task_id, close: [] });
    return groupId;
  };
  const child = k.fake.pageOpens(opener, "https://a.test/child");
  await k.fake.settle();
  const [report] = await watch.stop(k.ctx.clock);

  assert.deepEqual([report?.owned, report?.error?.code], [false, "child_not_owned"]);
  assert.equal(k.ctx.ownership.task(LOOK.task_id), undefined, "the finished task's record is not re-created");
  assert.equal(k.ctx.ownership.owner(child), undefined);
  assert.equal(k.fake.tabMap.get(child)?.groupId, -1, "the child left the group it was put in");
  assert.equal(k.fake.groupMap.size, 0, "no group of the finished task is left");
  assert.ok(k.fake.tabMap.has(child), "Chrome made it: it stays open, the user's");
  assert.deepEqual(children(k), []);
});

test("a trapped popup opens as an inactive tab in the opener's group; a non-web URL opens nothing", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  const made = await openChild(k.ctx, opener, "https://a.test/p");
  assert.equal(made?.owned, true);
  const tab = k.fake.tabMap.get(made?.tab_id ?? -1);
  assert.equal(tab?.active, false);
  assert.equal(tab?.groupId, k.ctx.ownership.owner(opener)?.tab.groupId);

  k.fake.calls.length = 0;
  const refused = await openChild(k.ctx, opener, "javascript:alert(1)");
  assert.equal(refused?.owned, false);
  assert.equal(refused?.error?.code, "child_not_owned");
  assert.deepEqual(k.fake.calls, [], "no tab was created");
});

test("a trapped popup Chrome cannot group is closed again, as AgentTab made it", async () => {
  const k = kit();
  const opener = await ownedOpener(k);
  k.fake.failNext.set("tabs.group", "Tabs cannot be edited right now");
  const r = await openChild(k.ctx, opener, "https://a.test/p");
  assert.equal(r?.error?.code, "child_not_owned");
  assert.deepEqual(k.fake.calls.filter((c) => c.startsWith("tabs.")).map((c) => c.split(" ")[0]), ["tabs.create", "tabs.group", "tabs.remove"]);
  assert.ok(![...k.fake.tabMap.values()].some((t) => t.pendingUrl === "https://a.test/p" || t.url === "https://a.test/p"), "the tab is gone");
});
