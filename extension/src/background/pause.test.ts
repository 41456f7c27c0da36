import { test } from "node:test";
import assert from "node:assert/strict";
import { PAUSE_REQUEST } from "../shared/status";
import { dispatcher } from "./dispatch";
import { PAUSED_KEY, PauseState } from "./pause-state";
import { servePopup } from "./popup-status";
import { kit, LOOK } from "./testkit";

const openParams = { task: LOOK, url: "https://example.com/", placement: "tab", load_wait_ms: 50 };

test("while paused only global work runs; nothing else reaches Chrome", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const handle = dispatcher(k.ctx, Promise.resolve());
  const paused = await handle({ type: "request", id: 1, method: "pause", params: {}, class: "global" });
  assert.deepEqual(paused.result, { paused: true });
  assert.equal(k.fake.localStorage.get(PAUSED_KEY), true, "stored before it is reported");

  const open = await handle({ type: "request", id: 2, method: "open", params: openParams, class: "mutation" });
  assert.equal(open.error?.code, "paused");
  assert.equal(open.error?.outcome, "not_started");
  const tabs = await handle({ type: "request", id: 3, method: "tabs", params: { task_id: "t1", tab_ids: [] }, class: "read" });
  assert.equal(tabs.error?.code, "paused");
  assert.ok(!k.fake.calls.includes("tabs.create"), "nothing was created");

  const reconciled = await handle({ type: "request", id: 4, method: "reconcile", params: { tasks: [] }, class: "global" });
  assert.equal(reconciled.error, undefined, "reconciliation runs while paused");
  const resumed = await handle({ type: "request", id: 5, method: "unpause", params: {}, class: "global" });
  assert.deepEqual(resumed.result, { paused: false });
  const again = await handle({ type: "request", id: 6, method: "open", params: openParams, class: "mutation" });
  assert.equal(again.error, undefined);
});

test("a stored Pause is restored before the worker says hello; anything but false reads as paused", async () => {
  for (const [stored, want] of [[true, true], [false, false], [undefined, false], ["yes", true]] as const) {
    const k = kit();
    if (stored !== undefined) k.fake.localStorage.set(PAUSED_KEY, stored);
    const p = new PauseState(k.fake.storageLocal, k.ctx.log);
    await p.load();
    assert.equal(p.paused, want, `stored ${String(stored)}`);
  }
});

test("the popup's Pause stops work at once and asks the host to pause; Resume asks the host to reconcile first", async () => {
  const k = kit();
  let connected = true;
  servePopup(k.ctx, Promise.resolve(), () => (connected ? { state: "connected", hostVersion: "1" } : { state: "connecting" }));
  const reply = await k.fake.runtime.sendMessage({ type: PAUSE_REQUEST, paused: true });
  assert.equal((reply as { paused: boolean }).paused, true);
  assert.equal(k.fake.localStorage.get(PAUSED_KEY), true);
  assert.deepEqual(k.events.map((e) => e.event), ["pause_requested"]);

  await k.fake.runtime.sendMessage({ type: PAUSE_REQUEST, paused: false });
  assert.equal(k.ctx.pause.paused, true, "only the host's unpause, after reconciliation, clears it");
  assert.deepEqual(k.events.map((e) => e.event), ["pause_requested", "resume_requested"]);

  // Without a host there is nothing to reconcile with; the host decides at its next handshake.
  connected = false;
  await k.fake.runtime.sendMessage({ type: PAUSE_REQUEST, paused: false });
  assert.equal(k.ctx.pause.paused, false);
});
