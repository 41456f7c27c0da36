import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./open";
import { STORAGE_KEY } from "../tabs/ownership";
import { failure, kit, LOOK } from "../../testing/testkit";

const params = (placement: "tab" | "new_window" = "tab", url = "https://example.com/") => ({ task: LOOK, url, placement, load_wait_ms: 1000 });


test("open creates an inactive tab in the last-focused window, in a new group with the task's look", async () => {
  const { fake, ctx } = kit();
  const win = fake.addWindow({ focused: true });
  const { tab } = await open(ctx, params());
  const created = fake.tabMap.get(tab.tab_id);
  assert.ok(created);
  assert.equal(created.active, false);
  assert.equal(created.windowId, win);
  const group = fake.groupMap.get(created.groupId);
  assert.deepEqual(group, { id: created.groupId, windowId: win, title: "Research", color: "blue", collapsed: false });
  assert.deepEqual(tab, {
    tab_id: created.id,
    window_id: win,
    group_id: created.groupId,
    url: "https://example.com/",
    title: "https://example.com/",
    route: "full",
    revision: 1, // a recorded tab starts at 1 (no revision watcher runs here)
    loading: false,
  });
  assert.deepEqual(fake.calls, ["tabs.create", "tabs.group", "tabGroups.update"]);
  assert.equal(ctx.ownership.owner(tab.tab_id)?.taskId, "t1");
  assert.ok(JSON.stringify(fake.storage.get(STORAGE_KEY)).includes(`[${tab.tab_id},`), "recorded in storage.session");
});

test("a second open joins the task's group in the window of its most recent tab", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const first = await open(ctx, params("new_window"));
  // The user focuses yet another window; the task stays where it is.
  fake.addWindow({ focused: true });
  const second = await open(ctx, params("tab", "https://example.org/"));
  assert.equal(second.tab.window_id, first.tab.window_id);
  assert.equal(second.tab.group_id, first.tab.group_id);
  assert.equal(fake.calls.filter((c) => c === "tabGroups.update").length, 1);
});

test("with no normal window, open creates an unfocused one", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ type: "popup", focused: true });
  const { tab } = await open(ctx, params());
  assert.equal(fake.windowMap.get(tab.window_id)?.focused, false);
  assert.equal(fake.windowMap.get(tab.window_id)?.type, "normal");
});

test("new_window creates an unfocused normal window", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const { tab } = await open(ctx, params("new_window"));
  assert.deepEqual(fake.windowMap.get(tab.window_id), { id: tab.window_id, type: "normal", focused: false });
  assert.ok(fake.groupMap.has(tab.group_id));
});

test("new_window is refused while the task owns a tab, before Chrome is asked", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  await open(ctx, params());
  const calls = fake.calls.length;
  const f = await failure(open(ctx, params("new_window")));
  assert.equal(f.detail.code, "new_window_not_eligible");
  assert.equal(f.detail.outcome, "not_started");
  assert.equal(fake.calls.length, calls);
});

for (const failing of ["tabs.group", "tabGroups.update"] as const) {
  test(`when ${failing} fails, the created tab is closed and nothing is owned`, async () => {
    const { fake, ctx } = kit();
    const win = fake.addWindow({ focused: true });
    const mine = fake.addTab(win, "https://user.example/");
    fake.failNext.set(failing, "Tabs cannot be edited right now (user may be dragging a tab).");
    const f = await failure(open(ctx, params()));
    assert.equal(f.detail.code, "group_failed");
    assert.equal(f.detail.outcome, "not_started");
    assert.notEqual(f.detail.recovery, "");
    assert.deepEqual([...fake.tabMap.keys()], [mine], "only the user's tab is left");
    assert.equal(fake.groupMap.size, 0);
    assert.deepEqual(ctx.ownership.taskIds(), []);
    const removed = fake.calls.filter((c) => c.startsWith("tabs.remove"));
    assert.equal(removed.length, 1);
    assert.notEqual(removed[0], `tabs.remove ${mine}`);
  });
}

test("a failed grouping in a new window closes that window's tab, and so the window", async () => {
  const { fake, ctx } = kit();
  fake.failNext.set("tabs.group", "boom");
  const f = await failure(open(ctx, params("new_window")));
  assert.equal(f.detail.code, "group_failed");
  assert.equal(fake.tabMap.size, 0);
  assert.equal(fake.windowMap.size, 0);
});

test("open answers loading=true when the load outlasts load_wait_ms", async () => {
  const { fake, ctx } = kit();
  fake.autoLoad = false;
  fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { ...params(), load_wait_ms: 10 });
  assert.equal(tab.loading, true);
  assert.equal(tab.url, "https://example.com/", "pendingUrl stands in for the url");
});

test("a tab closed while its load is awaited is reported not_owned", async () => {
  const { fake, ctx } = kit();
  fake.autoLoad = false;
  fake.addWindow({ focused: true });
  const opening = open(ctx, { ...params(), load_wait_ms: 5000 });
  await fake.settle();
  const [id] = [...fake.tabMap.keys()];
  assert.ok(id !== undefined);
  fake.userClose(id);
  const f = await failure(opening);
  assert.equal(f.detail.code, "not_owned");
  assert.equal(ctx.ownership.owner(id), undefined);
});
