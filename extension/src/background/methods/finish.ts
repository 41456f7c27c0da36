// The host's "finish": release every tab of the task, closing the ones the
// host names (only tabs the task owned), and ungroup the rest so the task's
// groups disappear. Reconciliation releases a task the host no longer
// knows the same way, closing nothing.
import type { ExtFinishParams, ExtFinishResult } from "../../protocol/generated";
import type { HasChrome, HasLog, HasNotices, HasOwnership } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasPages } from "../context";
import { errorText } from "../log";
import type { HasReviews } from "../review/reviews";
import type { TaskRecord } from "../tabs/ownership";
import { releaseStrays } from "../tabs/task-group";

/** What letting go of a task's tabs uses of the worker's Context (context.ts). */
export type ReleaseEnv = HasChrome & HasOwnership & HasPages & HasChallenges & HasLog;

/** Finishing also ends what the task left for the user: its notices and its stages' popup entries (spec 001; issue 12). */
export type FinishEnv = ReleaseEnv & HasNotices & HasReviews;

/** browser_finish, and the popup's End task (the host sends this for both). */
export async function finish(ctx: FinishEnv, p: ExtFinishParams): Promise<ExtFinishResult> {
  // The records go first, so the close and ungroup events that follow find
  // no owner and raise no revocations.
  const record = ctx.ownership.dropTask(p.task_id);
  await ctx.ownership.persist();
  await ctx.notices.clearTask(p.task_id);
  await ctx.reviews.dropTask(p.task_id);
  return record === undefined ? { released: [], closed: [] } : release(ctx, record, new Set(p.close));
}

/**
 * Lets go of a task whose record was dropped: its tabs in close are closed,
 * its other tabs ungrouped, and then whatever else is left in its groups,
 * so no group of the finished task stays behind in Chrome.
 */
export async function release(ctx: ReleaseEnv, record: TaskRecord, close: ReadonlySet<number>): Promise<ExtFinishResult> {
  const released: number[] = [];
  const closed: number[] = [];
  for (const [tabId, owned] of record.tabs) {
    // DESIGN.md "Debugger idle": detach at once on finish.
    await ctx.pages.release(tabId);
    // A released tab's challenge record goes with the task (revoke.ts).
    ctx.challenges.forget(tabId);
    if (close.has(tabId)) {
      const result = await removeTab(ctx, tabId);
      if (result === "closed") closed.push(tabId);
      if (result !== "failed") continue;
    }
    const tab = await ctx.chrome.tabs.get(tabId);
    if (tab === undefined) continue;
    released.push(tabId);
    // A tab the user has since moved to another group is theirs now.
    if (tab.groupId !== owned.groupId) continue;
    await ctx.chrome.tabs.ungroup(tabId).catch((e: unknown) => ctx.log.warn(`ungroup ${tabId} at finish: ${errorText(e)}`));
  }
  await releaseStrays(ctx, record);
  return { released, closed };
}

// Chrome refuses tab edits while the user drags a tab ("Tabs cannot be
// edited right now"); such a tab is released instead of closed.
async function removeTab(ctx: HasChrome & HasLog, tabId: number): Promise<"closed" | "gone" | "failed"> {
  try {
    return (await ctx.chrome.tabs.remove(tabId)) ? "closed" : "gone";
  } catch (e) {
    ctx.log.warn(`close ${tabId} at finish: ${errorText(e)}`);
    return "failed";
  }
}
