import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./open";
import { reconcile } from "./reconcile";
import { kit, LOOK, OTHER } from "./testkit";

test("reconcile keeps only what the host, the record and Chrome agree on", async () => {
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
  const reasons = new Map(result.revoked.map((r) => [r.tab_id, r.reason]));
  assert.deepEqual(
    reasons,
    new Map([
      [unlisted.tab_id, "inconsistent"],
      [closed.tab_id, "closed"],
      [ungrouped.tab_id, "inconsistent"],
      [wrongGroup.tab_id, "inconsistent"],
      [strangerId, "inconsistent"],
    ]),
  );
  assert.ok(result.revoked.every((r) => r.task_id === "t1"));
  // The task the host did not list is forgotten; its tab and group stay.
  assert.equal(ctx.ownership.task("t2"), undefined);
  assert.ok(fake.tabMap.has(otherTask.tab_id));
  assert.ok(fake.groupMap.has(otherTask.group_id));
  assert.equal(fake.calls.length, calls, "reconcile only reads Chrome");
  assert.deepEqual([...(ctx.ownership.task("t1")?.tabs.keys() ?? [])], [kept.tab_id]);
  assert.equal(ctx.ownership.task("t1")?.look.label, "Renamed");
  const stored = JSON.stringify(fake.storage.get("ownership"));
  assert.ok(stored.includes(`[${kept.tab_id},`) && !stored.includes(`[${otherTask.tab_id},`), "persisted");
});

test("a revision above the floor is kept", async () => {
  const { fake, ctx } = kit();
  fake.addWindow({ focused: true });
  const { tab } = await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  const result = await reconcile(ctx, { tasks: [{ task: LOOK, tabs: [{ tab_id: tab.tab_id, group_id: tab.group_id, revision_floor: 0 }] }] });
  assert.equal(result.kept[0]?.revision, tab.revision);
});
