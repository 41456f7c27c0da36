import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtActParams } from "../../protocol/generated";
import { act } from "../act/act";
import { open } from "../methods/open";
import { at, servePage } from "../../testing/page-kit";
import { snapshot } from "./snapshot";
import { ScriptingRoute } from "./scripting-route";
import { waitFor } from "./wait";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";

/** Chrome's words when a page embeds another extension's frame (observed in Chromium 156). */
const REFUSED = "Cannot access a chrome-extension:// URL of different extension";

/** An owned tab where Chrome refuses the debugger and the user granted scripting: the scripting route serves it. */
async function scriptedTab(k: Kit, agent: (name: string, args: unknown[]) => unknown, refuse = true): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await k.fake.permissions.request("scripting");
  k.fake.scriptedAgent = agent;
  // The refusal is remembered for 30 s (cdp/debuggers.ts): every call of the test meets it.
  if (refuse) k.fake.failNext.set("debugger.attach", REFUSED);
  return tab.tab_id;
}

function actParams(tabId: number, actions: ExtActParams["actions"]): ExtActParams {
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: 1, actions };
}

const snapshotParams = (tabId: number) => ({ task_id: LOOK.task_id, tab_id: tabId, mode: "interactive" as const, capture_chars: 1000, screenshot: "none" as const });

let calls: string[] = [];
let scrolled = 0;
const page = (name: string, args: unknown[]): unknown => {
  calls.push(`${name} ${String(args[0])}`);
  switch (name) {
    case "snapshot":
      return { text: '- button "Go" [ref=e1]\n- textbox "Secret" [ref=e2]\n- button "Gone" [ref=e3]\n- button "Under" [ref=e4]', truncated: false, nextId: 5, frames: [], title: "A", url: "https://a.test/" };
    case "knows":
      return true;
    case "target":
    case "domClick":
      return args[0] === "e3" ? { ...at(0, 0, { description: 'button "Gone"' }), ok: false, reason: "hidden" } : at(5, 5, { description: 'button "Go"' });
    case "hitTest":
      return args[0] === "e4" ? { ok: false, covering: 'dialog "Cookies"' } : { ok: true };
    case "navigationTarget":
      return null;
    case "inChallenge":
      return false;
    case "challenges":
      return [];
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
      throw new Error(`the test's page agent has no ${name}`);
  }
};

/** The page agent calls that are not reads of the ref's document (knows), the snapshot, or the challenge scan and guard. */
const inputCalls = () => calls.filter((c) => !c.startsWith("knows") && !c.startsWith("snapshot") && !c.startsWith("inChallenge") && !c.startsWith("challenges"));

test("the scripting route reads the top frame, clicks by ref, and refuses what it cannot do like the debugger route", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, page);
  const snap = await snapshot(k.ctx, snapshotParams(tabId));
  assert.deepEqual([snap.served_by, snap.lacks_user_activation], ["scripting", true]);
  assert.equal(k.ctx.ownership.owner(tabId)?.tab.nextRef, 5);

  calls = [];
  const clicked = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e1" }]));
  assert.deepEqual(clicked.steps, [{ index: 0, kind: "click", outcome: "dispatched", note: 'clicked button "Go"', served_by: "scripting", lacks_user_activation: true }]);
  assert.deepEqual(inputCalls(), ["target e1", "hitTest e1", "navigationTarget e1", "domClick e1"]);
  assert.deepEqual(
    k.fake.mainWorldCalls.map((c) => c.func),
    ["installOpenTrap", "collectOpenTrap"],
    "the window.open trap ran in the main world around the click only",
  );
  calls = [];
  for (const [ref, code] of [
    ["e3", "target_not_actionable"],
    ["e4", "target_covered"],
  ] as const) {
    const r = await act(k.ctx, actParams(tabId, [{ kind: "click", ref }, { kind: "click", ref: "e1" }]));
    assert.deepEqual([r.steps[0]?.error?.code, r.steps[0]?.outcome], [code, "not_started"], ref);
    assert.deepEqual([r.steps[1]?.outcome, r.steps[1]?.error], ["not_started", undefined], `${ref}: the batch stopped`);
  }
  assert.deepEqual(inputCalls(), ["target e3", "target e4", "hitTest e4"], "nothing was clicked for a hidden or covered target");
  assert.equal(k.fake.mainWorldCalls.length, 2, "no trap for a click that was refused first");
  const secret = await act(k.ctx, actParams(tabId, [{ kind: "fill", ref: "e2", text: "hunter2" }]));
  assert.deepEqual([secret.steps[0]?.error?.code, secret.steps[0]?.outcome], ["sensitive_field", "not_started"]);
  assert.ok(!JSON.stringify(secret).includes("hunter2"));
  const scroll = await act(k.ctx, actParams(tabId, [{ kind: "scroll", delta_y: 300 }]));
  assert.deepEqual(scroll.steps.map((s) => [s.outcome, s.served_by, s.lacks_user_activation]), [["confirmed", "scripting", undefined]]);
  const unknown = await act(k.ctx, actParams(tabId, [{ kind: "click", ref: "e9" }]));
  assert.equal(unknown.steps[0]?.error?.code, "stale_ref");
  const text = await waitFor(k.ctx, LOOK.task_id, tabId, { until: "text", text: "Go" });
  assert.deepEqual([text.satisfied, text.served_by, text.last_seen], [true, "scripting", "text present"]);
  const ref = await waitFor(k.ctx, LOOK.task_id, tabId, { until: "ref", ref: "e3", state: "hidden" });
  assert.deepEqual([ref.satisfied, ref.served_by, ref.last_seen], [true, "scripting", "e3 is hidden"]);
  const shot = await failure(snapshot(k.ctx, { ...snapshotParams(tabId), screenshot: "viewport" }));
  assert.deepEqual([shot.detail.code, shot.detail.outcome], ["debugger_unavailable", "not_started"]);
});

test("a step kind the scripting route does not serve (protocol.StepRules) is refused debugger_unavailable, not_started, before the page is asked anything", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, page);
  await snapshot(k.ctx, snapshotParams(tabId));
  for (const step of [
    { kind: "hover", ref: "e1" },
    { kind: "double_click", ref: "e1" },
    { kind: "press", keys: "Enter" },
    { kind: "drag", ref: "e1", to_ref: "e3" },
    { kind: "dialog", accept: true },
  ] satisfies ExtActParams["actions"]) {
    calls = [];
    const r = await act(k.ctx, actParams(tabId, [step, { kind: "click", ref: "e1" }]));
    const error = r.steps[0]?.error;
    assert.deepEqual([error?.code, r.steps[0]?.outcome], ["debugger_unavailable", "not_started"], step.kind);
    assert.match(error?.message ?? "", new RegExp(`a ${step.kind} step needs it \\(the scripting route serves .*click`), step.kind);
    assert.deepEqual([r.steps[1]?.outcome, r.steps[1]?.error], ["not_started", undefined], `${step.kind}: the batch stopped`);
    assert.deepEqual(calls, [], `${step.kind}: the page agent was not called`);
  }
  assert.deepEqual(k.fake.mainWorldCalls, [], "no trap was installed");
  // What only the debugger can do outside steps is refused the same way.
  for (const until of ["network_idle", "download"] as const) {
    const w = await failure(waitFor(k.ctx, LOOK.task_id, tabId, { until }));
    assert.deepEqual([w.detail.code, w.detail.outcome], ["debugger_unavailable", "not_started"], until);
    assert.match(w.detail.message, new RegExp(`a ${until} wait needs it`), until);
  }
});

test("the scripting route's focus makes the debugger route's check first: a hidden element is refused, not focused", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, (name, args) => (name === "focus" ? true : page(name, args)));
  await snapshot(k.ctx, snapshotParams(tabId));
  calls = [];
  const hidden = await act(k.ctx, actParams(tabId, [{ kind: "focus", ref: "e3" }]));
  assert.deepEqual([hidden.steps[0]?.error?.code, hidden.steps[0]?.outcome], ["target_not_actionable", "not_started"]);
  assert.deepEqual(inputCalls(), ["target e3"]);
  const shown = await act(k.ctx, actParams(tabId, [{ kind: "focus", ref: "e1" }]));
  assert.deepEqual(shown.steps.map((s) => [s.outcome, s.served_by, s.lacks_user_activation]), [["confirmed", "scripting", undefined]]);
});

for (const [words, remembered] of [
  [REFUSED, true],
  ["Detached while handling command.", false],
] as const) {
  test(`Chrome taking the debugger back after the attach ("${words}") falls back to the scripting route${remembered ? ", and the refusal is remembered" : ""}`, async () => {
    const k = kit();
    const tabId = await scriptedTab(k, page, false);
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
    const attachesBefore = k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length;
    assert.equal((await snapshot(k.ctx, snapshotParams(tabId))).served_by, "scripting");
    const attaches = k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length;
    assert.equal(attaches, attachesBefore + 1);
    assert.equal((await snapshot(k.ctx, snapshotParams(tabId))).served_by, "scripting");
    // A remembered refusal makes no new attach. (After a detach Chrome
    // reports onDetach and the next call attaches again; the fake keeps
    // the attachment, so the count says nothing there.)
    if (remembered) assert.equal(k.fake.calls.filter((c) => c.startsWith("debugger.attach")).length, attaches);
  });
}

test("page text that reads like Chrome's refusal (a dialog's message) is not taken for one: the snapshot reports the dialog, and the debugger stays", async () => {
  const k = kit();
  const tabId = await scriptedTab(k, page, false);
  servePage(k.fake, { id: "TOP", loaderId: "L1", url: "https://a.test/", agent: { snapshot: () => ({ text: '- button "Go" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "A", url: "https://a.test/" }) } });
  assert.equal((await snapshot(k.ctx, snapshotParams(tabId))).served_by, "debugger");
  k.fake.debuggerEvent({ tabId }, "Page.javascriptDialogOpening", { type: "alert", message: REFUSED, url: "https://a.test/" });
  await k.fake.settle();
  const dialog = await failure(snapshot(k.ctx, snapshotParams(tabId)));
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
  const f = await failure(snapshot(k.ctx, snapshotParams(tabId)));
  assert.deepEqual([f.detail.code, f.detail.outcome], ["snapshot_failed", "not_started"]);
  assert.match(f.detail.message, /navigated/);
  const probe = new ScriptingRoute(k.ctx, tabId).textProbe("Go", false);
  assert.deepEqual(await probe(), { ok: false, seen: "text not present" });
  replacing = false;
  assert.deepEqual(await probe(), { ok: true, seen: "text present" });
});
