import { test } from "node:test";
import assert from "node:assert/strict";
import { FocusGuard } from "./focus-guard";
import { open } from "../methods/open";
import { kit, LOOK, ManualClock } from "../../testing/testkit";

async function setUp() {
  const k = kit();
  const { fake, ctx } = k;
  const user = fake.addWindow({ focused: true });
  const mine = fake.addTab(user, "https://mine.example/");
  const clock = new ManualClock();
  const guard = new FocusGuard(fake, ctx.ownership, clock, ctx.log);
  fake.userActivate(mine);
  fake.userFocus(user);
  await fake.settle();
  await guard.load();
  const { tab } = await open(ctx, { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 1000 });
  const other = fake.addWindow({ focused: false });
  return { ...k, user, mine, other, task: tab.tab_id, guard, clock };
}

test("a child Chrome made active in the user's window gives the user's tab back", async () => {
  const { fake, user, mine, task, guard } = await setUp();
  const child = fake.pageOpens(task, "https://example.com/child");
  fake.userActivate(child);
  guard.child(child, user);
  await fake.settle();
  assert.equal(fake.tabMap.get(mine)?.active, true);
  assert.equal(fake.tabMap.get(child)?.active, false);
  assert.ok(fake.calls.includes(`tabs.giveBack ${mine}`));
});

test("the user activating a task's tab, or a child later, is the user's choice", async () => {
  const { fake, task, user, guard, clock } = await setUp();
  fake.userActivate(task);
  await fake.settle();
  const child = fake.pageOpens(task, "https://example.com/child");
  guard.child(child, user);
  clock.advance(3_001);
  fake.userActivate(child);
  await fake.settle();
  assert.equal(fake.tabMap.get(child)?.active, true);
  assert.ok(!fake.calls.some((c) => c.startsWith("tabs.giveBack")));
});

test("the focus a task's gesture gives its window goes back to the user's window", async () => {
  const { fake, user, other, guard } = await setUp();
  const done = guard.gesture(other);
  fake.userFocus(-1); // X11: none, then the new window (Chromium 156)
  fake.userFocus(other);
  await fake.settle();
  done();
  assert.equal(fake.focusedWindowId, user);
  assert.deepEqual(fake.calls.filter((c) => c.startsWith("windows.")), [`windows.giveFocusBack ${user}`]);
});

test("the user's Open tab on a notice is not given back, even in a window a gesture just armed", async () => {
  const { fake, other, guard } = await setUp();
  const done = guard.gesture(other);
  guard.allowUserOpen(0, other);
  fake.userFocus(-1);
  fake.userFocus(other);
  await fake.settle();
  done();
  assert.equal(fake.focusedWindowId, other);
  assert.ok(!fake.calls.some((c) => c.startsWith("windows.giveFocusBack")));
});

test("focus the user gives, or that comes long after a gesture, stays", async () => {
  const { fake, other, guard, clock } = await setUp();
  guard.gesture(other)();
  clock.advance(3_001);
  fake.userFocus(other);
  await fake.settle();
  assert.equal(fake.focusedWindowId, other);
  assert.ok(!fake.calls.some((c) => c.startsWith("windows.giveFocusBack")));
});
