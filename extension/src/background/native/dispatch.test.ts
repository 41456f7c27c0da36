import { test } from "node:test";
import assert from "node:assert/strict";
import type { NativeRequest } from "../../protocol/generated";
import { dispatcher } from "./dispatch";
import { kit, LOOK } from "../../testing/testkit";

const newWindow = (id: number, loadWaitMs = 1000): NativeRequest => ({
  type: "request",
  id,
  method: "open",
  params: { task: LOOK, url: "https://example.com/", placement: "new_window", load_wait_ms: loadWaitMs },
  class: "mutation",
});

const turn = () => new Promise((r) => setTimeout(r, 0));

// Issue 10: the global barrier is for Pause, Resume and reconciliation;
// an open into a new window holds back its own task only. Task t1's open
// waits for its page to load; task t2's work completes meanwhile. (Run in
// the global lane, as before, t2 waited until t1's load wait ran out.)
test("an open into a new window holds back only its own task", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  k.fake.autoLoad = false;
  const handle = dispatcher(k.ctx, Promise.resolve());
  const done: string[] = [];
  const a = handle(newWindow(1, 5000)).then((r) => (done.push("t1 open"), r));
  // The open has made its tab and waits for the load.
  while (k.fake.tabMap.size === 0 && done.length === 0) await turn();
  const b = await handle({ type: "request", id: 2, method: "tabs", params: { task_id: "t2", tab_ids: [] }, class: "read" });
  done.push("t2 tabs");
  assert.equal(b.error, undefined);
  for (const id of k.fake.tabMap.keys()) k.fake.finishLoad(id);
  const opened = await a;
  assert.equal(opened.error, undefined, JSON.stringify(opened.error));
  assert.deepEqual(done, ["t2 tabs", "t1 open"]);
});

// Spec 000: new_window only for the first tab of an empty task. Two sent
// together run in the task's order: the second finds the first's tab.
test("of two new-window opens of one task sent together, the second is refused", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const handle = dispatcher(k.ctx, Promise.resolve());
  const [first, second] = await Promise.all([handle(newWindow(1)), handle(newWindow(2))]);
  assert.equal(first.error, undefined, JSON.stringify(first.error));
  assert.equal(second.error?.code, "new_window_not_eligible");
  assert.equal(second.error?.outcome, "not_started");
  assert.equal(k.fake.windowMap.size, 2, "one window made");
  assert.equal(k.fake.calls.filter((c) => c === "windows.create").length, 1);
});

// In the global lane the Pause check was skipped: an open into a new
// window ran while paused.
test("while paused an open into a new window is refused and makes nothing", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const handle = dispatcher(k.ctx, Promise.resolve());
  await handle({ type: "request", id: 1, method: "pause", params: {}, class: "global" });
  const open = await handle(newWindow(2));
  assert.equal(open.error?.code, "paused");
  assert.equal(open.error?.outcome, "not_started");
  assert.deepEqual(
    k.fake.calls.filter((c) => c.startsWith("windows.") || c.startsWith("tabs.")),
    [],
  );
});

// Params are read by the generated decoder of their method (protocol's
// NativeParamsDecoders): a request the host's build could not have sent is
// invalid_params, not_started, naming the field, and nothing runs.
test("params that do not decode are refused before anything runs, naming the field", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const handle = dispatcher(k.ctx, Promise.resolve());
  const res = await handle({ ...newWindow(1), params: { task: LOOK, url: "https://example.com/", placement: "new_tab", load_wait_ms: 1000 } });
  assert.equal(res.error?.code, "invalid_params");
  assert.equal(res.error?.outcome, "not_started");
  assert.match(res.error?.message ?? "", /^params\.placement must be one of "tab", "new_window"$/);
  assert.match(res.error?.recovery ?? "", /Update AgentTab/);
  assert.equal(k.fake.tabMap.size, 0);
});

// Each method's class comes from protocol.NativeClasses, the host's table too.
test("a method's class is the protocol's: a read labelled as a mutation is refused", async () => {
  const k = kit();
  const handle = dispatcher(k.ctx, Promise.resolve());
  const res = await handle({ type: "request", id: 1, method: "tabs", params: { task_id: "t1", tab_ids: [] }, class: "mutation" });
  assert.equal(res.error?.code, "classification_mismatch");
  const unknown = await handle({ type: "request", id: 2, method: "teleport", params: {}, class: "read" });
  assert.equal(unknown.error?.code, "unknown_method");
});
