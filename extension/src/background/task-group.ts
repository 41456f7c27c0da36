// Putting a tab into its task's group. Source of truth: spec 001 ("AgentTab
// gives owned tabs a visible task group") and DESIGN.md "Ownership" (one
// creation routine; a grouping failure rolls back only tabs AgentTab
// created itself). Callers decide what a failure means for the tab.
import type { TaskLook } from "../protocol/generated";
import type { Context } from "./context";

/**
 * Groups the tab with the task's group in that window, or in a new group
 * with the task's label and colour; answers the group id. Chrome's error
 * is thrown as is (a popup-type window cannot hold groups).
 */
export async function joinTaskGroup(ctx: Context, look: TaskLook, tabId: number, windowId: number): Promise<number> {
  const existing = ctx.ownership.groupIn(look.task_id, windowId);
  if (existing !== undefined) return ctx.chrome.tabs.group({ groupId: existing, tabIds: [tabId] });
  const groupId = await ctx.chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId } });
  await ctx.chrome.tabGroups.update(groupId, { title: look.label, color: look.color, collapsed: false });
  return groupId;
}
