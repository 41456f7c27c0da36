// The host's "act": one batch of steps on an owned tab. Source of truth:
// issue 3 (browser_act) and protocol/page.go (ExtActParams/Result).
import { CodeStaleRevision } from "../../protocol/generated";
import type { ExtActParams, ExtActResult } from "../../protocol/generated";
import { failure } from "../native/failure";
import type { RouteEnv } from "../pagework/choose-route";
import { ownedPage } from "../pagework/page-work";
import { runSteps } from "./receipts";
import { runStep } from "./steps";
import type { StepEnv } from "./steps";
import { checkSteps } from "./validate";

export async function act(ctx: RouteEnv, p: ExtActParams): Promise<ExtActResult> {
  checkSteps(p.actions);
  const { owned } = await ownedPage(ctx, p.task_id, p.tab_id);
  // DESIGN.md "Page revision and refs": a stale expected revision fails
  // before anything is dispatched.
  if (owned.revision !== p.expected_page_revision) {
    throw failure(CodeStaleRevision, `the page is at revision ${owned.revision}, not ${p.expected_page_revision}`);
  }
  const env: StepEnv = { ctx, taskId: p.task_id, tabId: p.tab_id, popups: [], actionableMs: p.actionable_timeout_ms ?? 0 };
  const steps = await runSteps(p.actions, (step, index) => runStep(env, step, index));
  const tab = await ctx.chrome.tabs.get(p.tab_id);
  const result: ExtActResult = {
    steps,
    // The record object outlives a revocation, so a closed tab still has its last revision.
    revision: owned.revision,
    url: tab === undefined ? "" : tab.url || tab.pendingUrl || "",
    title: tab?.title ?? "",
    closed: tab === undefined,
  };
  const dialog = ctx.pages.session(p.tab_id)?.dialog;
  if (dialog !== undefined) result.dialog = dialog.info;
  if (env.popups.length > 0) result.popups = env.popups;
  return result;
}
