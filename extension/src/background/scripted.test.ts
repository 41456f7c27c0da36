import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./open";
import { at } from "./page-kit";
import { scriptedSnapshot, scriptedStep } from "./scripted";
import { failure, kit, LOOK } from "./testkit";
import type { Kit } from "./testkit";

async function scriptedTab(k: Kit, agent: (name: string, args: unknown[]) => unknown): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await k.fake.permissions.request("scripting");
  k.fake.scriptedAgent = agent;
  return tab.tab_id;
}

const page = (name: string, args: unknown[]): unknown => {
  switch (name) {
    case "snapshot":
      return { text: '- button "Go" [ref=e1]\n- textbox "Secret" [ref=e2]\n- button "Gone" [ref=e3]', truncated: false, nextId: 4, frames: [], title: "A", url: "https://a.test/" };
    case "knows":
      return true;
    case "domClick":
      return args[0] === "e3" ? { ...at(0, 0, { description: 'button "Gone"' }), ok: false, reason: "hidden" } : at(5, 5, { description: 'button "Go"' });
    case "domSetValue":
      return { ...at(5, 5, { description: 'textbox "Secret"' }), ok: false, sensitive: true };
    default:
      return null;
  }
};

test("the scripting route reads the top frame, clicks by ref, and refuses what it cannot do like the debugger route", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, page);
  const owned = k.ctx.ownership.owner(tabId)?.tab;
  assert.ok(owned);
  const snap = await scriptedSnapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" }, owned);
  assert.equal(snap.served_by, "scripting");
  assert.equal(owned.nextRef, 4);

  const clicked = await scriptedStep(k.ctx, tabId, { kind: "click", ref: "e1" });
  assert.match(clicked.note, /scripting route/);
  const hidden = await failure(scriptedStep(k.ctx, tabId, { kind: "click", ref: "e3" }));
  assert.deepEqual([hidden.detail.code, hidden.detail.outcome], ["target_not_actionable", "not_started"]);
  const secret = await failure(scriptedStep(k.ctx, tabId, { kind: "fill", ref: "e2", text: "hunter2" }));
  assert.equal(secret.detail.code, "sensitive_field");
  const hover = await failure(scriptedStep(k.ctx, tabId, { kind: "hover", ref: "e1" }));
  assert.deepEqual([hover.detail.code, hover.detail.outcome], ["debugger_unavailable", "not_started"]);
  const unknown = await failure(scriptedStep(k.ctx, tabId, { kind: "click", ref: "e9" }));
  assert.equal(unknown.detail.code, "stale_ref");
  const shot = await failure(scriptedSnapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "viewport" }, owned));
  assert.equal(shot.detail.code, "debugger_unavailable");
});
