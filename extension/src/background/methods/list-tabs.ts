// The host's "tabs": the live state of a task's owned tabs, read from
// Chrome. A tab found closed or outside its recorded group is revoked here
// and reported in the answer.
import { RevokeClosed, RevokeInconsistent } from "../../protocol/generated";
import type { ExtTab, ExtTabsParams, ExtTabsResult, Revocation } from "../../protocol/generated";
import type { HasChrome, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasPages } from "../context";
import { extTab, lossReason } from "../tabs/ext-tab";
import { revoke } from "../tabs/revoke";

export async function listTabs(ctx: HasChrome & HasOwnership & HasPages & HasChallenges & Notifies, p: ExtTabsParams): Promise<ExtTabsResult> {
  const tabs: ExtTab[] = [];
  const revoked: Revocation[] = [];
  for (const tabId of p.tab_ids) {
    const owner = ctx.ownership.owner(tabId);
    if (owner?.taskId !== p.task_id) {
      // The host believes the task owns a tab the extension has no record
      // of for it: never trust the claim.
      revoked.push({ task_id: p.task_id, tab_id: tabId, reason: RevokeInconsistent });
      continue;
    }
    const tab = await ctx.chrome.tabs.get(tabId);
    const lost = lossReason(tab, owner.tab.groupId);
    if (tab === undefined || lost !== undefined) {
      const reason = lost ?? RevokeClosed;
      // An event may have revoked it while Chrome was read; it is listed
      // either way, since the host asked about it.
      revoked.push((await revoke(ctx, tabId, reason, "answer")) ?? { task_id: p.task_id, tab_id: tabId, reason });
      continue;
    }
    tabs.push(extTab(tab, owner.tab.revision));
  }
  return { tabs, revoked };
}
