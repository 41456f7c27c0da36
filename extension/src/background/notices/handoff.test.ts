import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../methods/open";
import { finish } from "../methods/finish";
import { snapshot } from "../pagework/snapshot";
import { waitFor } from "../pagework/wait";
import { servePage } from "../../testing/page-kit";
import type { FakeFrame } from "../../testing/page-kit";
import { failure, kit, LOOK, OTHER } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { handoff } from "./handoff";

async function ownedTab(k: Kit, url = "https://a.test/login"): Promise<number> {
  const { tab } = await open(k.ctx, { task: LOOK, url, placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  return tab.tab_id;
}

test("a request records a notice with Chrome's origin and the idle state, replaces the tab's open one, and focuses nothing", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k);
  k.fake.idleState = "idle";
  const before = k.fake.calls.length;
  const first = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "captcha", message: "solve it" });
  assert.equal(first.user_idle_state, "idle");
  assert.match(first.notice?.notice_id ?? "", /^ntc_[0-9a-f]{32}$/);
  assert.deepEqual({ origin: first.notice?.origin, state: first.notice?.state, tab: first.notice?.tab_id }, { origin: "https://a.test", state: "open", tab: tabId });
  assert.equal(k.fake.badge, "1");
  const second = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "login" });
  assert.notEqual(second.notice?.notice_id, first.notice?.notice_id);
  const status = await handoff(k.ctx, { task_id: LOOK.task_id, action: "status" });
  assert.deepEqual(status.notices?.map((n) => n.state), ["open", "replaced"]);
  assert.equal(k.fake.badge, "1", "one open notice per tab");
  assert.ok(!k.fake.calls.slice(before).some((c) => c.includes("openForUser") || c.includes("giveBack") || c.includes("giveFocusBack")), "nothing was focused");

  const stale = await failure(handoff(k.ctx, { task_id: LOOK.task_id, action: "resolve", notice_id: first.notice?.notice_id ?? "" }));
  assert.deepEqual({ code: stale.detail.code, outcome: stale.detail.outcome }, { code: "notice_not_found", outcome: "not_started" });
  const other = await failure(handoff(k.ctx, { task_id: OTHER.task_id, action: "dismiss", notice_id: second.notice?.notice_id ?? "" }));
  assert.equal(other.detail.code, "notice_not_found", "another task cannot close it");
  const resolved = await handoff(k.ctx, { task_id: LOOK.task_id, action: "resolve", notice_id: second.notice?.notice_id ?? "" });
  assert.equal(resolved.notice?.state, "resolved");
  assert.equal(k.fake.badge, "");
});

test("a notice's expiry retires only its reminder: it stays open, blacks out, and its agent still closes it; finishing the task clears its notices", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k);
  servePage(k.fake, page());
  const n = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "passkey", expires_in_ms: 20 });
  await new Promise((r) => setTimeout(r, 40));
  const status = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "status" });
  assert.deepEqual(status.notices?.map((x) => [x.state, x.expires_in_ms]), [["open", 0]]);
  assert.equal(k.fake.badge, "", "the expired reminder left the badge");
  assert.deepEqual(k.ctx.notices.visible(), [], "and the popup");
  k.fake.userActivate(tabId);
  k.fake.userFocus(win);
  const f = await failure(read(k, tabId));
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "handoff_in_progress", outcome: "not_started" }, "the blackout outlives the reminder");
  k.fake.userFocus(-1);
  const resolved = await handoff(k.ctx, { task_id: LOOK.task_id, action: "resolve", notice_id: n.notice?.notice_id ?? "" });
  assert.equal(resolved.notice?.state, "resolved");

  await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "other" });
  await finish(k.ctx, { task_id: LOOK.task_id, close: [] });
  assert.deepEqual(k.ctx.notices.status(LOOK.task_id), []);
  assert.equal(k.fake.badge, "");
});

test("a request works on a tab_only tab, which has no page access", async () => {
  const k = kit();
  k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k, "chrome://settings/");
  const r = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "verification" });
  assert.equal(r.notice?.origin, "chrome://settings");
});

test("while the human is on a noticed tab (active in the focused window) page work fails handoff_in_progress; elsewhere it runs", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k);
  servePage(k.fake, page());
  await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "captcha" });
  await read(k, tabId); // the notice alone blacks nothing out: the human is not on the tab
  k.fake.userActivate(tabId);
  k.fake.userFocus(win);
  const commands = k.fake.commands.length;
  const f = await failure(read(k, tabId));
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "handoff_in_progress", outcome: "not_started" });
  assert.equal(k.fake.commands.length, commands, "nothing reached the page");
  k.fake.userFocus(-1); // the user went to another application
  await read(k, tabId);
});

test("a text wait that began before the human came onto the noticed tab ends handoff_in_progress at its next poll, and asks the page nothing more", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k);
  let probes = 0;
  const agent = {
    ...page().agent,
    hasText: () => {
      probes++;
      return false;
    },
  };
  servePage(k.fake, { ...page(), agent });
  await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "captcha" });
  const waiting = failure(waitFor(k.ctx, LOOK.task_id, tabId, { until: "text", text: "Welcome", timeout_ms: 10_000 }));
  while (probes === 0) await new Promise((r) => setTimeout(r, 10));
  k.fake.userActivate(tabId);
  k.fake.userFocus(win);
  const f = await waiting;
  assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "handoff_in_progress", outcome: "not_started" });
  const seen = probes;
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(probes, seen, "the page is no longer polled");
});

test("the agent's resolve or dismiss is refused handoff_in_progress while the human is on the tab, and the notice stays open; once they leave it closes", async () => {
  const k = kit();
  const win = k.fake.addWindow({ focused: true });
  const tabId = await ownedTab(k);
  const n = await handoff(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, action: "request", reason: "captcha" });
  const id = n.notice?.notice_id ?? "";
  k.fake.userActivate(tabId);
  k.fake.userFocus(win);
  for (const action of ["resolve", "dismiss"] as const) {
    const f = await failure(handoff(k.ctx, { task_id: LOOK.task_id, action, notice_id: id }));
    assert.deepEqual({ code: f.detail.code, outcome: f.detail.outcome }, { code: "handoff_in_progress", outcome: "not_started" }, action);
  }
  assert.equal(k.ctx.notices.openFor(tabId), true, "still open: the blackout holds");
  assert.equal(k.fake.badge, "1");
  const unknown = await failure(handoff(k.ctx, { task_id: LOOK.task_id, action: "resolve", notice_id: "ntc_none" }));
  assert.equal(unknown.detail.code, "notice_not_found", "an id that is not the open notice is still not found");
  k.fake.userFocus(-1);
  const dismissed = await handoff(k.ctx, { task_id: LOOK.task_id, action: "dismiss", notice_id: id });
  assert.equal(dismissed.notice?.state, "dismissed");
});

function page(): FakeFrame {
  return { id: "TOP", loaderId: "L1", url: "https://a.test/login", agent: { snapshot: () => ({ text: '- button "Go" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "a", url: "https://a.test/login" }) } };
}

function read(k: Kit, tabId: number) {
  return snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" });
}
