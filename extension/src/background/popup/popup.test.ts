import { test } from "node:test";
import assert from "node:assert/strict";
import { ADOPTION_ANSWER, END_TASK, NOTICE_ACTION, PAUSE_REQUEST, STAGE_REVIEW, STATUS_REQUEST, YOLO_SWITCH } from "../../shared/status";
import type { StatusReply } from "../../shared/status";
import { open } from "../methods/open";
import { handoff } from "../notices/handoff";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { popupDeps } from "../../testing/popup-kit";
import { servePopup } from "./status";

const connected = () => ({ state: "connected" as const, hostVersion: "1" });

async function send(k: Kit, message: unknown): Promise<StatusReply> {
  const reply = await k.fake.runtime.sendMessage(message);
  assert.ok(typeof reply === "object" && reply !== null && "pause" in reply, "a status reply");
  return reply as StatusReply;
}

async function noticed(k: Kit): Promise<{ tabId: number; noticeId: string }> {
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  const r = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, action: "request", reason: "captcha", message: "please" });
  return { tabId: tab.tab_id, noticeId: r.notice?.notice_id ?? "" };
}

test("the status lists tasks with the host's connection and idle time, notices, YOLO mode; without a host tasks are not connected", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  let up = true;
  const deps = popupDeps(() => (up ? connected() : { state: "connecting" }), (method) => (method === "task_overview" ? { result: { tasks: [{ task_id: LOOK.task_id, connected: true, idle_ms: 1234 }] } } : { result: {} }));
  servePopup(k.ctx, Promise.resolve(), deps);
  const { noticeId } = await noticed(k);
  const s = await send(k, { type: STATUS_REQUEST });
  assert.deepEqual(s.tasks, [{ taskId: LOOK.task_id, label: LOOK.label, color: LOOK.color, ownedTabs: 1, connected: true, idleMs: 1234, developer: false }]);
  assert.deepEqual(s.notices.map((n) => [n.noticeId, n.taskLabel, n.reason, n.message, n.origin]), [[noticeId, LOOK.label, "captcha", "please", "https://a.test"]]);
  assert.equal(s.yolo, true);
  assert.equal(s.pauseReason, undefined);
  up = false;
  const away = await send(k, { type: STATUS_REQUEST });
  assert.deepEqual(away.tasks.map((t) => [t.connected, "idleMs" in t]), [[false, false]]);
});

test("Open tab focuses exactly the noticed tab, with the focus guard's allowance; Dismiss only hides the reminder", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const deps = popupDeps(connected);
  servePopup(k.ctx, Promise.resolve(), deps);
  const { tabId, noticeId } = await noticed(k);
  k.fake.userFocus(-1);
  await send(k, { type: NOTICE_ACTION, noticeId, action: "open_tab" });
  assert.deepEqual(deps.allowed, [tabId]);
  assert.ok(k.fake.calls.includes(`tabs.openForUser ${tabId}`));
  assert.equal(k.fake.tabMap.get(tabId)?.active, true);
  assert.equal(k.fake.focusedWindowId, win);
  const hidden = await send(k, { type: NOTICE_ACTION, noticeId, action: "dismiss" });
  assert.deepEqual(hidden.notices, []);
  assert.equal(k.fake.badge, "");
  const status = await handoff(k.ctx, { task_id: LOOK.task_id, action: "status" });
  assert.deepEqual(status.notices?.map((n) => [n.state, n.hidden_by_user]), [["open", true]], "still open for the agent");
});

test("Approve asks the host and marks the entry; an answer it does not know removes it; YOLO on drops entries and tells the host; End task asks the host", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const states: Record<string, string> = { h1: "approved", h2: "expired" };
  const deps = popupDeps(connected, (method, params) => {
    if (method === "stage_review") {
      const handle = typeof params === "object" && params !== null && "review_handle" in params ? String(params.review_handle) : "";
      return { result: { state: states[handle] } };
    }
    return { result: {} };
  });
  servePopup(k.ctx, Promise.resolve(), deps);
  await k.ctx.reviews.setYolo(false);
  const entry = (handle: string) => ({ handle, taskId: LOOK.task_id, tabId: 1, effect: "send" as const, origin: "https://a.test", control: "Send", fields: [], ...k.ctx.reviews.times(), state: "pending" as const });
  await k.ctx.reviews.add(entry("h1"));
  await k.ctx.reviews.add(entry("h2"));
  const approved = await send(k, { type: STAGE_REVIEW, handle: "h1", approve: true });
  assert.deepEqual(deps.asked[0], { method: "stage_review", params: { review_handle: "h1", approve: true } });
  assert.deepEqual(approved.stages.map((s) => [s.handle, s.state]), [["h1", "approved"], ["h2", "pending"]]);
  const gone = await send(k, { type: STAGE_REVIEW, handle: "h2", approve: true });
  assert.deepEqual(gone.stages.map((s) => s.handle), ["h1"]);

  const yolo = await send(k, { type: YOLO_SWITCH, on: true });
  assert.equal(yolo.yolo, true);
  assert.deepEqual(yolo.stages, []);
  assert.deepEqual(deps.asked.filter((a) => a.method === "yolo"), [{ method: "yolo", params: { on: true } }]);

  await send(k, { type: END_TASK, taskId: LOOK.task_id, closeTabs: true });
  assert.deepEqual(deps.asked.filter((a) => a.method === "end_task"), [{ method: "end_task", params: { task_id: LOOK.task_id, close_tabs: true } }]);
});

test("only the extension's popup page is answered: a content script in a tab (the scripting route's page agent) cannot approve, switch YOLO on, end a task, press a notice or Pause, nor read the status", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const deps = popupDeps(connected, () => ({ result: { state: "approved" } }));
  servePopup(k.ctx, Promise.resolve(), deps);
  await k.ctx.reviews.setYolo(false);
  await k.ctx.reviews.add({ handle: "h1", taskId: LOOK.task_id, tabId: 1, effect: "send", origin: "https://a.test", control: "Send", fields: [], ...k.ctx.reviews.times(), state: "pending" });
  const { tabId, noticeId } = await noticed(k);
  const calls = k.fake.calls.length;
  const buttons = [
    { type: STATUS_REQUEST },
    { type: STAGE_REVIEW, handle: "h1", approve: true },
    { type: YOLO_SWITCH, on: true },
    { type: END_TASK, taskId: LOOK.task_id, closeTabs: true },
    { type: NOTICE_ACTION, noticeId, action: "open_tab" },
    { type: NOTICE_ACTION, noticeId, action: "dismiss" },
    { type: ADOPTION_ANSWER, id: "a1", allow: true },
    { type: PAUSE_REQUEST, paused: true },
  ];
  const senders = [
    { id: k.fake.runtime.id, url: "https://a.test/", tabId }, // the page agent: Chrome reports the page's frame
    { id: k.fake.runtime.id, url: "https://a.test/popup.html", tabId },
    { id: "anotherextension", url: "chrome-extension://anotherextension/popup.html", tabId: undefined },
  ];
  for (const sender of senders) {
    for (const message of buttons) {
      assert.equal(await k.fake.messageFrom(sender, message), undefined, `${JSON.stringify(sender)} ${message.type} is not answered`);
    }
  }
  assert.deepEqual(deps.asked, [], "nothing reached the host");
  assert.equal(k.ctx.reviews.yolo, false);
  assert.deepEqual((await k.ctx.reviews.list()).map((e) => e.state), ["pending"]);
  assert.deepEqual(k.ctx.notices.visible().map((n) => n.noticeId), [noticeId]);
  assert.equal(k.ctx.pause.paused, false);
  assert.ok(k.ctx.ownership.owner(tabId) !== undefined, "the task still owns its tab");
  assert.deepEqual(k.fake.calls.slice(calls), [], "no Chrome call");

  const popup = await send(k, { type: STAGE_REVIEW, handle: "h1", approve: true });
  assert.deepEqual(popup.stages.map((e) => e.state), ["approved"], "the popup itself is answered");
});
