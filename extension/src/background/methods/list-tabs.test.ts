import { test } from "node:test";
import assert from "node:assert/strict";
import { listTabs } from "./list-tabs";
import { open } from "./open";
import { kit, LOOK, OTHER } from "../../testing/testkit";

test("tabs lists owned tabs and revokes, in its answer, the ones Chrome no longer shows in their group", async () => {
  const { fake, ctx, events } = kit();
  fake.addWindow({ focused: true });
  const openTab = async (look = LOOK) => (await open(ctx, { task: look, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 })).tab;
  const live = await openTab();
  const ungrouped = await openTab();
  const closed = await openTab();
  const otherTask = await openTab(OTHER);
  // Chrome changed the tabs but its events have not arrived yet.
  fake.userUngroup(ungrouped.tab_id);
  fake.userClose(closed.tab_id);

  const result = await listTabs(ctx, { task_id: "t1", tab_ids: [live.tab_id, ungrouped.tab_id, closed.tab_id, otherTask.tab_id] });
  assert.deepEqual(result.tabs.map((t) => t.tab_id), [live.tab_id]);
  assert.deepEqual(result.revoked, [
    { task_id: "t1", tab_id: ungrouped.tab_id, reason: "ungrouped" },
    { task_id: "t1", tab_id: closed.tab_id, reason: "closed" },
    { task_id: "t1", tab_id: otherTask.tab_id, reason: "inconsistent" },
  ]);
  assert.equal(ctx.ownership.owner(ungrouped.tab_id), undefined);
  assert.equal(ctx.ownership.owner(otherTask.tab_id)?.taskId, "t2", "another task's tab stays that task's");
  assert.deepEqual(events, [], "reported in the answer, not as events");
});
