import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./open";
import { reconcile } from "./reconcile";
import { FakeChrome } from "../../testing/fake-chrome";
import { Ownership } from "../tabs/ownership";
import { kit, LOOK, OTHER } from "../../testing/testkit";
import { watchOwnership } from "../tabs/watch-ownership";

test("reconcile keeps what the host, the record and Chrome agree on, finds what only the record has, and releases unlisted tasks", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const openTab = async (look = LOOK) => (await open(ctx, { task: look, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const kept = await openTab();
  const closed = await openTab();
  const ungrouped = await openTab();
  const unlisted = await openTab();
  const wrongGroup = await openTab();
  const otherTask = await openTab(OTHER);
  await fake.settle();
  fake.userClose(closed.tab_id);
  fake.userUngroup(ungrouped.tab_id);
  await fake.settle();
  const strangerId = fake.addTab(kept.window_id, "https://user.example/");
  const calls = fake.calls.length;

  const result = await reconcile(ctx, {
    tasks: [
      {
        task: { ...LOOK, label: "Renamed" },
        tabs: [
          { tab_id: kept.tab_id, group_id: kept.group_id, revision_floor: 9 },
          { tab_id: closed.tab_id, group_id: closed.group_id, revision_floor: 1 },
          { tab_id: ungrouped.tab_id, group_id: ungrouped.group_id, revision_floor: 1 },
          { tab_id: wrongGroup.tab_id, group_id: wrongGroup.group_id + 1000, revision_floor: 1 },
          { tab_id: strangerId, group_id: kept.group_id, revision_floor: 1 },
        ],
      },
    ],
  });

  assert.deepEqual(
    result.kept.map((t) => [t.tab_id, t.revision]),
    [[kept.tab_id, 9]],
  );
  // The tab the host never recorded (it died while the open waited for the
  // page) is the task's: the host records it.
  assert.deepEqual(
    result.found.map((f) => [f.task_id, f.source, f.tab.tab_id, f.tab.group_id]),
    [["t1", "created", unlisted.tab_id, unlisted.group_id]],
  );
  const reasons = new Map(result.revoked.map((r) => [r.tab_id, r.reason]));
  assert.deepEqual(
    reasons,
    new Map([
      [closed.tab_id, "closed"],
      [ungrouped.tab_id, "inconsistent"],
      [wrongGroup.tab_id, "inconsistent"],
      [strangerId, "inconsistent"],
    ]),
  );
  assert.ok(result.revoked.every((r) => r.task_id === "t1"));
  // The task the host did not list has ended: its tab is released (open,
  // ungrouped) and its group is gone.
  assert.equal(ctx.ownership.task("t2"), undefined);
  assert.equal(fake.tabMap.get(otherTask.tab_id)?.groupId, -1);
  assert.ok(!fake.groupMap.has(otherTask.group_id));
  // The revoked tab still in the task's group is released too; nothing is closed.
  assert.deepEqual(fake.calls.slice(calls).sort(), [`tabs.ungroup ${otherTask.tab_id}`, `tabs.ungroup ${wrongGroup.tab_id}`].sort());
  assert.equal(fake.tabMap.get(wrongGroup.tab_id)?.groupId, -1);
  assert.deepEqual([...(ctx.ownership.task("t1")?.tabs.keys() ?? [])].sort(), [kept.tab_id, unlisted.tab_id].sort());
  assert.equal(ctx.ownership.task("t1")?.look.label, "Renamed");
  const stored = JSON.stringify(fake.storage.get("ownership"));
  assert.ok(stored.includes(`[${kept.tab_id},`) && stored.includes(`[${unlisted.tab_id},`) && !stored.includes(`[${otherTask.tab_id},`), "persisted");
});

test("a tab is found only while Chrome shows it in its recorded group, and never when the host lists it for another task", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const openTab = async (look = LOOK) => (await open(ctx, { task: look, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const moved = await openTab();
  const gone = await openTab();
  const claimed = await openTab();
  const other = await openTab(OTHER);
  // A popup the host was never told of: the host grants children only
  // while it holds the opener, so it is not found but released.
  const child = fake.addTab(moved.window_id, "https://example.com/popup");
  fake.userMoveToGroup(child, moved.group_id);
  ctx.ownership.add(LOOK, child, moved.group_id, moved.window_id, "child");
  const theirs = fake.addGroup(moved.window_id, [fake.addTab(moved.window_id, "https://user.example/")]);
  fake.userMoveToGroup(moved.tab_id, theirs);
  fake.userClose(gone.tab_id);
  await fake.settle();

  const result = await reconcile(ctx, {
    tasks: [
      { task: LOOK, tabs: [] },
      { task: OTHER, tabs: [{ tab_id: other.tab_id, group_id: other.group_id, revision_floor: 1 }, { tab_id: claimed.tab_id, group_id: claimed.group_id, revision_floor: 1 }] },
    ],
  });
  assert.deepEqual(result.found, []);
  assert.deepEqual(result.kept.map((t) => t.tab_id), [other.tab_id]);
  const reasons = result.revoked.map((r) => [r.task_id, r.tab_id, r.reason]);
  assert.deepEqual(
    reasons.filter((r) => r[0] === "t1"),
    [
      ["t1", moved.tab_id, "inconsistent"],
      ["t1", gone.tab_id, "closed"],
      ["t1", claimed.tab_id, "inconsistent"],
      ["t1", child, "inconsistent"],
    ],
  );
  assert.equal(fake.tabMap.get(moved.tab_id)?.groupId, theirs, "a tab in the user's group stays there");
  assert.equal(fake.tabMap.get(child)?.groupId, -1, "the ungranted child is released, not closed");
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.remove")));
});

test("reconcile ungroups what no task owns from a task's groups and closes nothing", async () => {
  const { fake, ctx, events } = kit();
  fake.addWindow({ focused: true });
  watchOwnership(ctx, Promise.resolve());
  const { tab } = await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  // One the user dragged in, one a worker that died mid-open had grouped
  // and never recorded: Chrome cannot tell them apart, and neither is owned.
  const dragged = fake.addTab(tab.window_id, "https://user.example/");
  const stray = fake.addTab(tab.window_id, "https://example.com/stray");
  fake.userMoveToGroup(dragged, tab.group_id);
  fake.userMoveToGroup(stray, tab.group_id);
  await fake.settle();

  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: tab.tab_id, group_id: tab.group_id, revision_floor: 1 }] }] });
  await fake.settle();
  assert.deepEqual(result.kept.map((t) => t.tab_id), [tab.tab_id]);
  assert.deepEqual(result.found, []);
  for (const id of [dragged, stray]) {
    assert.equal(fake.tabMap.get(id)?.groupId, -1, `tab ${id} released`);
    assert.equal(ctx.ownership.owner(id), undefined, `tab ${id} not adopted`);
  }
  assert.equal(fake.tabMap.get(tab.tab_id)?.groupId, tab.group_id);
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.remove")));
  assert.deepEqual(events, []);
});

test("a revision above the floor is kept", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: tab.tab_id, group_id: tab.group_id, revision_floor: 0 }] }] });
  assert.equal(result.kept[0]?.revision, tab.revision);
});

/**
 * AgentTab was disabled across a browser restart and enabled later: only
 * the storage.local mirror is left, and its tab and group ids now name the
 * user's tab in the user's group (Chrome reuses ids). The kit's worker
 * loads that mirror.
 */
async function staleMirror(look = LOOK) {
  const fake = new FakeChrome();
  const win = fake.addWindow({ focused: true });
  const users = fake.addTab(win, "https://bank.example/");
  const sibling = fake.addTab(win, "https://mail.example/");
  const group = fake.addGroup(win, [users, sibling]);
  const before = new Ownership(fake.storageSession, { info: () => undefined, warn: () => undefined }, fake.storageLocal);
  before.add(look, users, group, win);
  await before.persist();
  fake.storage.clear(); // disabling the extension empties storage.session
  const k = kit(fake);
  await k.ctx.ownership.load();
  assert.equal(k.ctx.ownership.owner(users)?.taskId, look.task_id, "the mirror was read");
  return { ...k, users, sibling, group };
}

test("a record from the storage.local mirror is never found, and its group's other tabs are never released: the ids may be the user's now", async () => {
  const { fake, ctx, users, sibling, group } = await staleMirror();
  // The host died mid-open in the old session: it lists the task, not the tab.
  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [] }] });
  assert.deepEqual(result.found, [], "not found: browser_finish would close it as the task's");
  assert.deepEqual(result.revoked.map((r) => [r.tab_id, r.reason]), [[users, "inconsistent"]]);
  assert.deepEqual([fake.tabMap.get(users)?.groupId, fake.tabMap.get(sibling)?.groupId], [group, group], "the user's group is left alone");
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.")), JSON.stringify(fake.calls));
});

test("a mirrored tab the host lists is kept only while its group has the task's title and colour", async () => {
  const { fake, ctx, users, group } = await staleMirror();
  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: users, group_id: group, revision_floor: 1 }] }] });
  assert.deepEqual(result.kept, [], "the user's group is not the task's");
  assert.deepEqual(result.revoked.map((r) => [r.tab_id, r.reason]), [[users, "inconsistent"]]);
  assert.equal(fake.tabMap.get(users)?.groupId, group);

  // After an extension reload in the same browser session the group is the task's own: kept.
  const same = await staleMirror();
  const g = same.fake.groupMap.get(same.group);
  assert.ok(g);
  Object.assign(g, { title: LOOK.label, color: LOOK.color });
  const again = await reconcile(same.ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: same.users, group_id: same.group, revision_floor: 1 }] }] });
  assert.deepEqual(again.kept.map((t) => t.tab_id), [same.users]);
});

test("a mirrored task the host no longer lists is dropped without ungrouping anything in a group that is not its own", async () => {
  const { fake, ctx, users, sibling, group } = await staleMirror(OTHER);
  await reconcile(ctx, { tasks: [] });
  assert.equal(ctx.ownership.task(OTHER.task_id), undefined);
  assert.deepEqual([fake.tabMap.get(users)?.groupId, fake.tabMap.get(sibling)?.groupId], [group, group]);
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.")), JSON.stringify(fake.calls));
});

test("a tab is found, and strays released, only in a group that still has the task's title and colour", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  const dragged = fake.addTab(tab.window_id, "https://user.example/");
  fake.userMoveToGroup(dragged, tab.group_id);
  // The group is not what the worker made (the user recoloured it).
  const g = fake.groupMap.get(tab.group_id);
  assert.ok(g);
  g.color = "pink";
  await fake.settle();
  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [] }] });
  assert.deepEqual(result.found, []);
  assert.deepEqual(result.revoked.map((r) => [r.tab_id, r.reason]), [[tab.tab_id, "inconsistent"]]);
  assert.equal(fake.tabMap.get(dragged)?.groupId, tab.group_id, "not released from a group that may not be the task's");
});
