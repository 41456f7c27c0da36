// The host's "act": one batch of steps on an owned tab. Source of truth:
// issue 3 (browser_act), issue 12 (a staged step stops the batch; the
// challenge member) and protocol/page.go (ExtActParams/Result).
import { CodeStaleRevision, OutcomeNotStarted } from "../../protocol/generated";
import type { ExtActParams, ExtActResult, StepReceipt } from "../../protocol/generated";
import { scanChallenges } from "../challenges/scan";
import { failure } from "../native/failure";
import { ownedPage } from "../pagework/page-work";
import type { OwnedTab } from "../tabs/ownership";
import { runSteps } from "./receipts";
import { runStep } from "./steps";
import type { StepEnv } from "./steps";
import { checkSteps } from "./validate";

/** What act (and commit, review/commit.ts) use of the worker's Context: page routes, Commit review and the challenge scan. */
export type ActContext = StepEnv["ctx"];

export async function act(ctx: ActContext, p: ExtActParams): Promise<ExtActResult> {
  checkSteps(p.actions);
  const { owned } = await ownedPage(ctx, p.task_id, p.tab_id);
  // DESIGN.md "Page revision and refs": a stale expected revision fails
  // before anything is dispatched.
  if (owned.revision !== p.expected_page_revision) {
    throw failure(CodeStaleRevision, `the page is at revision ${owned.revision}, not ${p.expected_page_revision}`);
  }
  const env: StepEnv = { ctx, taskId: p.task_id, tabId: p.tab_id, popups: [], actionableMs: p.actionable_timeout_ms ?? 0 };
  const steps = await runSteps(p.actions, (step, index) => runStep(env, step, index));
  return actResult(ctx, env, owned, steps);
}

/** A batch's result (act's, or commit's one step): the tab as it is now, and what the steps left (a dialog, popups, a stage, a challenge). */
export async function actResult(ctx: ActContext, env: StepEnv, owned: OwnedTab, steps: StepReceipt[]): Promise<ExtActResult> {
  const tab = await ctx.chrome.tabs.get(env.tabId);
  const url = tab === undefined ? "" : tab.url || tab.pendingUrl || "";
  const result: ExtActResult = {
    steps,
    // The record object outlives a revocation, so a closed tab still has its last revision.
    revision: owned.revision,
    url,
    title: tab?.title ?? "",
    closed: tab === undefined,
  };
  const dialog = ctx.pages.session(env.tabId)?.dialog;
  if (dialog !== undefined) result.dialog = dialog.info;
  if (env.popups.length > 0) result.popups = env.popups;
  if (env.staged !== undefined) result.staged = env.staged;
  if (tab === undefined) {
    ctx.challenges.forget(env.tabId);
  } else if (dialog === undefined && ctx.ownership.owner(env.tabId)?.taskId === env.taskId && reachedPage(ctx, env.tabId, steps)) {
    // A dialog blocks the page's scripts, the scan's too; a tab the batch
    // lost is not read.
    const challenge = await scanChallenges(ctx, { tabId: env.tabId, url, revision: owned.revision, context: "act" });
    if (challenge !== undefined) result.challenge = challenge;
  }
  return result;
}

/**
 * Whether the batch's page is one AgentTab already works in, so the scan
 * costs one call: a step reached it (on either route), the debugger is on
 * the tab, or a challenge was seen there (it may have gone). A batch of
 * tab-lifecycle steps on a tab never read attaches nothing for the scan;
 * the next snapshot scans.
 */
function reachedPage(ctx: ActContext, tabId: number, steps: StepReceipt[]): boolean {
  return ctx.challenges.has(tabId) || ctx.pages.session(tabId) !== undefined || steps.some((s) => s.served_by !== undefined && s.outcome !== OutcomeNotStarted);
}
