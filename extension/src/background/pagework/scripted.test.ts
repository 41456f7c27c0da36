import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "../methods/open";
import { at, servePage } from "../../testing/page-kit";
import { snapshot } from "./snapshot";
import { Progress } from "../act/receipts";
import { scriptedRefProbe, scriptedSnapshot, scriptedStep, scriptedTextProbe } from "./scripted";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

async function scriptedTab(k: Kit, agent: (name: string, args: unknown[]) => unknown): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await k.fake.permissions.request("scripting");
  k.fake.scriptedAgent = agent;
  return tab.tab_id;
}

let clicks: string[] = [];
let scrolled = 0;
const page = (name: string, args: unknown[]): unknown => {
  switch (name) {
    case "snapshot":
      return { text: '- button "Go" [ref=e1]\n- textbox "Secret" [ref=e2]\n- button "Gone" [ref=e3]\n- button "Under" [ref=e4]', truncated: false, nextId: 5, frames: [], title: "A", url: "https://a.test/" };
    case "knows":
      return true;
    case "target":
    case "domClick":
      clicks.push(`${name} ${String(args[0])}`);
      return args[0] === "e3" ? { ...at(0, 0, { description: 'button "Gone"' }), ok: false, reason: "hidden" } : at(5, 5, { description: 'button "Go"' });
    case "hitTest":
      return args[0] === "e4" ? { ok: false, covering: 'dialog "Cookies"' } : { ok: true };
    case "scrollBy":
      scrolled += Number(args[2]);
      return { x: 0, y: scrolled };
    case "hasText":
      return args[0] === "Go";
    case "state":
      return args[0] === "e3" ? "hidden" : "enabled";
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
  assert.deepEqual([snap.served_by, snap.lacks_user_activation], ["scripting", true]);
  assert.equal(owned.nextRef, 5);

  const progress = () => new Progress();
  clicks = [];
  const clicked = await scriptedStep(k.ctx, tabId, { kind: "click", ref: "e1" }, progress());
  assert.deepEqual([clicked.servedBy, clicked.lacksUserActivation], ["scripting", true]);
  assert.deepEqual(clicks, ["target e1", "domClick e1"]);
  assert.deepEqual(
    k.fake.mainWorldCalls.map((c) => c.func),
    ["installOpenTrap", "collectOpenTrap"],
    "the window.open trap ran in the main world around the click only",
  );
  clicks = [];
  const hidden = await failure(scriptedStep(k.ctx, tabId, { kind: "click", ref: "e3" }, progress()));
  assert.deepEqual([hidden.detail.code, hidden.detail.outcome], ["target_not_actionable", "not_started"]);
  const under = await failure(scriptedStep(k.ctx, tabId, { kind: "click", ref: "e4" }, progress()));
  assert.deepEqual([under.detail.code, under.detail.outcome], ["target_covered", "not_started"]);
  assert.match(under.detail.message, /Cookies/);
  assert.deepEqual(clicks, ["target e3", "target e4"], "nothing was clicked for a hidden or covered target");
  assert.equal(k.fake.mainWorldCalls.length, 2, "no trap for a click that was refused first");
  const secret = await failure(scriptedStep(k.ctx, tabId, { kind: "fill", ref: "e2", text: "hunter2" }, progress()));
  assert.equal(secret.detail.code, "sensitive_field");
  const scroll = await scriptedStep(k.ctx, tabId, { kind: "scroll", delta_y: 300 }, progress());
  assert.deepEqual([scroll.outcome, scroll.servedBy, scroll.lacksUserActivation], ["confirmed", "scripting", undefined]);
  for (const kind of ["hover", "drag", "dialog", "press", "double_click"] as const) {
    const refused = await failure(scriptedStep(k.ctx, tabId, { kind, ref: "e1", to_ref: "e1", keys: "Enter" }, progress()));
    assert.deepEqual([refused.detail.code, refused.detail.outcome], ["debugger_unavailable", "not_started"], kind);
  }
  const unknown = await failure(scriptedStep(k.ctx, tabId, { kind: "click", ref: "e9" }, progress()));
  assert.equal(unknown.detail.code, "stale_ref");
  assert.deepEqual(await scriptedTextProbe(k.ctx, tabId, "Go", false)(), { ok: true, seen: "text present" });
  assert.deepEqual(await (await scriptedRefProbe(k.ctx, tabId, "e3", "hidden"))(), { ok: true, seen: "e3 is hidden" });
  const shot = await failure(scriptedSnapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "viewport" }, owned));
  assert.equal(shot.detail.code, "debugger_unavailable");
});

for (const [words, remembered] of [
  ["Cannot access a chrome-extension:// URL of different extension", true],
  ["Detached while handling command.", false],
] as const) {
  test(`Chrome taking the debugger back after the attach ("${words}") falls back to the scripting route${remembered ? ", and the refusal is remembered" : ""}`, async () => {
    const k = kit();
    const tabId = await scriptedTab(k, page);
    servePage(k.fake, {
      id: "TOP",
      loaderId: "L1",
      url: "https://a.test/",
      agent: {
        snapshot: () => {
          throw new Error(words);
        },
      },
    });
    const params = { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive" as const, capture_chars: 1000, screenshot: "none" as const };
    const attachesBefore = k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length;
    assert.equal((await snapshot(k.ctx, params)).served_by, "scripting");
    const attaches = k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length;
    assert.equal(attaches, attachesBefore + 1);
    assert.equal((await snapshot(k.ctx, params)).served_by, "scripting");
    // A remembered refusal makes no new attach. (After a detach Chrome
    // reports onDetach and the next call attaches again; the fake keeps
    // the attachment, so the count says nothing there.)
    if (remembered) assert.equal(k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length, attaches);
  });
}

test("page text that reads like Chrome's refusal (a dialog's message) is not taken for one: the snapshot reports the dialog, and the debugger stays", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, page);
  servePage(k.fake, { id: "TOP", loaderId: "L1", url: "https://a.test/", agent: { snapshot: () => ({ text: '- button "Go" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "A", url: "https://a.test/" }) } });
  const params = { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive" as const, capture_chars: 1000, screenshot: "none" as const };
  assert.equal((await snapshot(k.ctx, params)).served_by, "debugger");
  k.fake.debuggerEvent({ tabId }, "Page.javascriptDialogOpening", { type: "alert", message: "Cannot access a chrome-extension:// URL of different extension", url: "https://a.test/" });
  await k.fake.settle();
  const dialog = await failure(snapshot(k.ctx, params));
  assert.equal(dialog.detail.code, "dialog_open");
  assert.ok(k.ctx.pages.session(tabId), "the attachment is kept (only it can answer the dialog)");
});

test("a scripting-route read that meets the document's replacement ('Frame with ID 0 was removed.') is a retryable snapshot failure, and a text wait just sees nothing that round", async () => {
  const k = kit();
  let replacing = true;
  const tabId = await scriptedTab(k, (name, args) => {
    if (replacing) throw new Error("Frame with ID 0 was removed.");
    return page(name, args);
  });
  k.fake.failNext.set("debugger.attach", "Cannot access a chrome-extension:// URL of different extension");
  const f = await failure(snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tabId, mode: "interactive", capture_chars: 1000, screenshot: "none" }));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["snapshot_failed", "not_started"]);
  assert.match(f.detail.message, /navigated/);
  assert.deepEqual(await scriptedTextProbe(k.ctx, tabId, "Go", false)(), { ok: false, seen: "text not present" });
  replacing = false;
  assert.deepEqual(await scriptedTextProbe(k.ctx, tabId, "Go", false)(), { ok: true, seen: "text present" });
});
