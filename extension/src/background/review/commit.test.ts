import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtCommitParams, Step } from "../../protocol/generated";
import { open } from "../methods/open";
import { sha256Hex } from "../random";
import { failure, kit, LOOK } from "../../testing/testkit";
import type { Kit } from "../../testing/testkit";
import { commitStage } from "./commit";

// Spec 000 on tab_only tabs: "Snapshot, page-content wait, element action,
// page-dependent Commit … fail before script or debugger execution with
// browser_restricted_origin and outcome: not_started. A staged close
// remains executable through browser_commit because it uses Chrome's
// tab-lifecycle API without page access."

async function restrictedTab(k: Kit): Promise<number> {
  k.fake.addWindow({ focused: true });
  const { tab } = await open(k.ctx, { task: LOOK, url: "chrome://settings/", placement: "tab", load_wait_ms: 1000 });
  await k.fake.settle();
  return tab.tab_id;
}

/** An approved stage entry held for the popup, as review/stage.ts leaves it, and the host's commit of step. */
async function approved(k: Kit, tabId: number, step: Step): Promise<ExtCommitParams> {
  const handle = `handle-${step.kind}`;
  const { createdAt, expiresAt } = k.ctx.reviews.times();
  await k.ctx.reviews.add({ handle, taskId: LOOK.task_id, tabId, effect: "delete", origin: "chrome://settings", control: "", fields: [], createdAt, expiresAt, state: "approved" });
  return { task_id: LOOK.task_id, tab_id: tabId, expected_page_revision: 1, step, review_handle_digest: await sha256Hex(handle), effect: "delete", fingerprint: "f" };
}

test("on a tab_only tab a page-dependent commit is browser_restricted_origin, not_started, and a staged close still runs", async () => {
  const k = kit();
  const tabId = await restrictedTab(k);
  const click = await failure(commitStage(k.ctx, await approved(k, tabId, { kind: "click", ref: "e1" })));
  assert.deepEqual([click.detail.code, click.detail.outcome], ["browser_restricted_origin", "not_started"]);
  assert.equal(
    k.fake.calls.some((c) => c.startsWith("debugger") || c.startsWith("scripting")),
    false,
    "nothing touched the page",
  );

  const closed = await commitStage(k.ctx, await approved(k, tabId, { kind: "close" }));
  assert.equal(closed.closed, true);
  assert.equal(closed.steps[0]?.outcome !== "not_started", true);
});
