// Ending ownership of one tab: drop the record, persist, then tell the host.
// Source of truth: spec 001 ("Moving an owned tab out of its task group,
// ungrouping it, closing it, or finding inconsistent ownership immediately
// revokes it").
import { EventRevoked } from "../../protocol/generated";
import type { Revocation, RevokeReason } from "../../protocol/generated";
import type { HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasPages } from "../context";

/**
 * Revokes tabId if some task owns it and returns what was revoked; a tab
 * nobody owns (already revoked by an earlier event, or never owned) gives
 * undefined, so Chrome's several events for one move revoke once.
 *
 * report "event" sends a revoked event (Chrome told us); "answer" leaves the
 * reporting to the response of the request that found it, so the host hears
 * of each revocation once.
 */
export async function revoke(ctx: HasOwnership & HasPages & HasChallenges & Notifies, tabId: number, reason: RevokeReason, report: "event" | "answer"): Promise<Revocation | undefined> {
  const owner = ctx.ownership.drop(tabId);
  if (owner === undefined) return undefined;
  const revocation: Revocation = { task_id: owner.taskId, tab_id: tabId, reason };
  // The challenge record is the task's: a task that later opens or adopts
  // the tab must not be told of a challenge (its id, that it went) it
  // never saw.
  ctx.challenges.forget(tabId);
  // DESIGN.md "Debugger idle": a revoked tab is let go at once.
  await ctx.pages.release(tabId);
  await ctx.ownership.persist();
  if (report === "event") ctx.notify(EventRevoked, revocation);
  return revocation;
}
