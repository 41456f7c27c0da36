import { test } from "node:test";
import assert from "node:assert/strict";
import { LifecyclePaused, LifecyclePausing, LifecycleReady } from "../../protocol/generated";
import { PAUSE_REQUEST, STATUS_REQUEST } from "../../shared/status";
import type { PauseRequest, StatusReply, StatusRequest } from "../../shared/status";
import { adopt } from "../methods/adopt";
import { dispatcher } from "../native/dispatch";
import { beginPause } from "./pause";
import { PAUSED_KEY, PauseState } from "./pause-state";
import { servePopup } from "../popup/status";
import { failure, kit, LOOK } from "../../testing/testkit";
import { popupDeps } from "../../testing/popup-kit";
import type { Kit } from "../../testing/testkit";

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
  servePopup(k.ctx, Promise.resolve(), popupDeps(() => (connected ? { state: "connected", hostVersion: "1" } : { state: "connecting" })));
  const reply = await status(k, { type: PAUSE_REQUEST, paused: true });
  assert.equal(reply.pause, LifecyclePausing, "pausing until the host says the Pause is in force");
  assert.equal(k.ctx.pause.paused, true, "admission closed at once");
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

// Spec 001: Pause is a barrier, not an optimistic UI toggle. The popup
// says pausing, with what is still running, from the click until the
// host says dispatched work has settled and the Pause is stored.
test("the popup shows pausing while a dispatched request settles, then paused once the host's pause arrives", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  k.fake.autoLoad = false; // the open waits for its tab's load: in flight until the test finishes it
  const handle = dispatcher(k.ctx, Promise.resolve());
  servePopup(k.ctx, Promise.resolve(), popupDeps(() => ({ state: "connected", hostVersion: "1" })));
  const opening = handle({ type: "request", id: 1, method: "open", params: { ...openParams, load_wait_ms: 5000 }, class: "mutation" });
  const tabId = await until(() => [...k.fake.tabMap.values()].find((t) => t.pendingUrl === openParams.url)?.id);

  const clicked = await status(k, { type: PAUSE_REQUEST, paused: true });
  assert.deepEqual({ pause: clicked.pause, settling: clicked.settling }, { pause: LifecyclePausing, settling: 1 });
  const queued = await handle({ type: "request", id: 2, method: "open", params: openParams, class: "mutation" });
  assert.deepEqual({ code: queued.error?.code, outcome: queued.error?.outcome }, { code: "paused", outcome: "not_started" });
  assert.equal(k.fake.calls.filter((c) => c === "tabs.create").length, 1, "nothing new was created");
  assert.equal((await status(k, { type: STATUS_REQUEST })).pause, LifecyclePausing);

  k.fake.finishLoad(tabId);
  const opened = await opening;
  assert.equal(opened.error, undefined, "the dispatched open ended with its own outcome");
  const settled = await status(k, { type: STATUS_REQUEST });
  assert.deepEqual({ pause: settled.pause, settling: settled.settling }, { pause: LifecyclePausing, settling: 0 }, "still pausing until the host has stored it");

  await handle({ type: "request", id: 3, method: "pause", params: {}, class: "global" });
  assert.equal((await status(k, { type: STATUS_REQUEST })).pause, LifecyclePaused);
});

test("a Pause begun by the host (agenttab pause) shows pausing, and ends a pending adoption request at once as paused", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const userTab = k.fake.addTab(win, "https://user.example/");
  const t = k.fake.tabMap.get(userTab);
  assert.ok(t);
  t.active = true;
  const handle = dispatcher(k.ctx, Promise.resolve());
  servePopup(k.ctx, Promise.resolve(), popupDeps(() => ({ state: "connected", hostVersion: "1" })));
  const adopting = handle({ type: "request", id: 1, method: "adopt", params: { task: LOOK, timeout_ms: 60_000 }, class: "mutation" });
  await until(() => k.ctx.adoptions.list()[0]);

  const began = await handle({ type: "request", id: 2, method: "pausing", params: {}, class: "global" });
  assert.deepEqual(began.result, { paused: true });
  const adopted = await adopting;
  assert.deepEqual({ code: adopted.error?.code, outcome: adopted.error?.outcome }, { code: "paused", outcome: "not_started" });
  assert.deepEqual(k.ctx.adoptions.list(), []);
  assert.equal(k.fake.badge, "");
  assert.ok(!k.fake.calls.includes("tabs.group"), "the user's tab was not grouped");
  assert.equal((await status(k, { type: STATUS_REQUEST })).pause, LifecyclePausing);
  await handle({ type: "request", id: 3, method: "pause", params: {}, class: "global" });
  assert.equal((await status(k, { type: STATUS_REQUEST })).pause, LifecyclePaused);
});

test("an adoption the worker starts asking for after a Pause began is refused, not left waiting", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const t = k.fake.tabMap.get(k.fake.addTab(win, "https://user.example/"));
  assert.ok(t);
  t.active = true;
  await beginPause(k.ctx);
  const f = await failure(adopt(k.ctx, { task: LOOK, timeout_ms: 60_000 }));
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "paused", outcome: "not_started" });
  assert.deepEqual(k.ctx.adoptions.list(), []);
});

test("without a host, the popup's Pause is in force once the worker's own work has settled", async () => {
  const k = kit();
  servePopup(k.ctx, Promise.resolve(), popupDeps(() => ({ state: "connecting" })));
  assert.equal((await status(k, { type: STATUS_REQUEST })).pause, LifecycleReady);
  assert.equal((await status(k, { type: PAUSE_REQUEST, paused: true })).pause, LifecyclePaused);
});

async function status(k: Kit, message: PauseRequest | StatusRequest): Promise<StatusReply> {
  const reply = await k.fake.runtime.sendMessage(message);
  assert.ok(typeof reply === "object" && reply !== null && "pause" in reply, "a status reply");
  return reply as StatusReply;
}

async function until<T>(f: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error("the condition never held");
}
