import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtActParams } from "../../protocol/generated";
import { open } from "../methods/open";
import { snapshot } from "../pagework/snapshot";
import type { FakeFrame } from "../../testing/page-kit";
import { at, servePage } from "../../testing/page-kit";
import { kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import type { HitTest } from "../../shared/page-agent";
import { act } from "./act";

// Issue 11: a target that is not actionable yet is looked at again, within
// the step's actionable_timeout_ms, and only then refused; on a background
// tab the looks run while the tab renders frames (pumpFrames).

async function ownedTab(k: Kit): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "https://a.test/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  await snapshot(k.ctx, { task_id: LOOK.task_id, tab_id: tab.tab_id, mode: "interactive", capture_chars: 1000, screenshot: "none" });
  return tab.tab_id;
}

function page(hitTest: () => HitTest, target = () => at(60, 70)): FakeFrame {
  return {
    id: "TOP",
    loaderId: "L1",
    url: "https://a.test/",
    agent: {
      snapshot: () => ({ text: '- button "Go" [ref=e1]', truncated: false, nextId: 2, frames: [], title: "A", url: "https://a.test/" }),
      knows: (ref) => ref === "e1",
      target,
      hitTest,
    },
  };
}

function click(tabId: number, actionableMs?: number): ExtActParams {
  const p: ExtActParams = { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: 1, actions: [{ kind: "click", ref: "e1" }] };
  if (actionableMs !== undefined) p.actionable_timeout_ms = actionableMs;
  return p;
}

function methods(k: Kit): string[] {
  return k.fake.commands.map((c) => (c.method === "Input.dispatchMouseEvent" ? `${c.method} ${String((c.params as { type?: string }).type)}` : c.method));
}

test("a covered target that is uncovered while the step waits is clicked, frames pumped meanwhile, and the receipt says how long it waited", async () => {
  const k = kit();
  let looks = 0;
  servePage(k.fake, page(() => (++looks < 4 ? { ok: false, covering: 'dialog "Cookies"' } : { ok: true })));
  const tabId = await ownedTab(k);
  const r = await act(k.ctx, click(tabId, 2000));
  const step = r.steps[0];
  assert.equal(step?.outcome, "dispatched", JSON.stringify(step));
  assert.equal(looks, 4);
  assert.ok((step?.waited_ms ?? 0) > 0, "the receipt says it waited");
  const sent = methods(k);
  const start = sent.indexOf("Page.startScreencast");
  const stop = sent.indexOf("Page.stopScreencast");
  const press = sent.indexOf("Input.dispatchMouseEvent mousePressed");
  assert.ok(start >= 0 && start < stop && stop < press, `frames are pumped only while waiting: ${sent.join(", ")}`);
});

test("a target still covered when the timeout ends is refused with how long it waited, nothing dispatched", async () => {
  const k = kit();
  servePage(k.fake, page(() => ({ ok: false, covering: 'dialog "Cookies"' })));
  const tabId = await ownedTab(k);
  const r = await act(k.ctx, click(tabId, 150));
  const step = r.steps[0];
  assert.equal(step?.error?.code, "target_covered");
  assert.equal(step?.outcome, "not_started");
  assert.match(step?.error?.message ?? "", /Cookies" \(after waiting \d+ ms\)/);
  assert.ok((step?.waited_ms ?? 0) >= 150, JSON.stringify(step));
  assert.deepEqual(methods(k).filter((m) => m.startsWith("Input.")), []);
});

test("a target that left the page is refused at once, and without a timeout nothing waits", async () => {
  const k = kit();
  let looks = 0;
  servePage(k.fake, page(() => ({ ok: true }), () => (looks++, { ...at(0, 0), ok: false, reason: "detached" })));
  const tabId = await ownedTab(k);
  const gone = await act(k.ctx, click(tabId, 2000));
  assert.equal(gone.steps[0]?.error?.code, "target_not_actionable");
  assert.equal(gone.steps[0]?.waited_ms, undefined);
  assert.equal(looks, 1);
  servePage(k.fake, page(() => ({ ok: false, covering: "banner" })));
  const now = await act(k.ctx, click(tabId));
  assert.equal(now.steps[0]?.error?.code, "target_covered");
  assert.equal(now.steps[0]?.waited_ms, undefined);
  assert.ok(!methods(k).includes("Page.startScreencast"));
});
