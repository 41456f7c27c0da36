import { test } from "node:test";
import assert from "node:assert/strict";
import { dispatcher } from "../native/dispatch";
import { open } from "../methods/open";
import { kit, LOOK } from "../../testing/testkit";
import { PAUSE_REASON_KEY, PAUSED_KEY, PauseState } from "./pause-state";
import { watchDebuggerCancel } from "./debugger-cancel";
import { pauseRefusal } from "./pause";

test("Cancel on the debugging banner is the user's Pause: persisted with its reason, told to the host once, refusals say so, nothing attaches until Resume", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  watchDebuggerCancel(k.ctx, Promise.resolve());
  k.ctx.pages.debuggers.refuseAttachWhile(() => (k.ctx.pause.reason === "debugger_canceled" ? pauseRefusal(k.ctx.pause.reason) : undefined));
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  k.fake.debuggerDetach(tab.tab_id, "canceled_by_user");
  k.fake.debuggerDetach(tab.tab_id, "canceled_by_user");
  await k.fake.settle();
  assert.equal(k.ctx.pause.paused, true);
  assert.equal(k.ctx.pause.reason, "debugger_canceled");
  assert.deepEqual([k.fake.localStorage.get(PAUSED_KEY), k.fake.localStorage.get(PAUSE_REASON_KEY)], [true, "debugger_canceled"]);
  assert.deepEqual(k.events, [{ event: "pause_requested", params: { reason: "debugger_canceled" } }]);

  const handle = dispatcher(k.ctx, Promise.resolve());
  const snap = await handle({ type: "request", id: 1, method: "snapshot", params: { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" }, class: "read" });
  assert.deepEqual({ code: snap.error?.code, outcome: snap.error?.outcome }, { code: "paused", outcome: "not_started" });
  assert.match(snap.error?.message ?? "", /Cancel on Chrome's debugging banner/);
  assert.match(snap.error?.recovery ?? "", /Resume in the AgentTab popup/);
  // Not even the origin guard's hold attaches while it stands.
  await assert.rejects(k.ctx.pages.debuggers.hold(tab.tab_id));
  assert.ok(!k.fake.attachedTabs.has(tab.tab_id));

  // A restarted worker reads the reason back before its hello.
  const again = new PauseState(k.fake.storageLocal, k.ctx.log);
  await again.load();
  assert.equal(again.reason, "debugger_canceled");

  await handle({ type: "request", id: 2, method: "unpause", params: {}, class: "global" });
  assert.equal(k.ctx.pause.reason, undefined);
  assert.equal(k.fake.localStorage.get(PAUSE_REASON_KEY), "user");
  await k.ctx.pages.debuggers.hold(tab.tab_id);
  assert.ok(k.fake.attachedTabs.has(tab.tab_id), "attaches again after Resume");
});

test("a debugger detached because its tab closed pauses nothing", async () => {
  const k = kit();
  watchDebuggerCancel(k.ctx, Promise.resolve());
  k.fake.debuggerDetach(1, "target_closed");
  await k.fake.settle();
  assert.equal(k.ctx.pause.paused, false);
  assert.deepEqual(k.events, []);
});
