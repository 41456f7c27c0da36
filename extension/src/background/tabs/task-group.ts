// A task's tab groups: putting a tab into its task's group, and emptying the
// groups of what the task does not own. Source of truth: spec 001
// ("AgentTab gives owned tabs a visible task group"; "group membership
// alone never grants authority") and DESIGN.md "Ownership" (one creation
// routine; a grouping failure rolls back only tabs AgentTab created
// itself). Callers decide what a grouping failure means for the tab.
import { DeveloperMarker } from "../../protocol/generated";
import type { TaskLook } from "../../protocol/generated";
import type { HasChrome, HasLog, HasOwnership } from "../capabilities";
import { errorText } from "../log";
import type { TaskRecord } from "./ownership";

/** What the group routines use of the worker's Context (context.ts). */
export type GroupEnv = HasChrome & HasOwnership & HasLog;

/**
 * Groups the tab with the task's group in that window, or in a new group
 * with the task's label and colour; answers the group id. Chrome's error
 * is thrown as is (a popup-type window cannot hold groups).
 */
export async function joinTaskGroup(ctx: GroupEnv, look: TaskLook, tabId: number, windowId: number): Promise<number> {
  const existing = ctx.ownership.groupIn(look.task_id, windowId);
  if (existing !== undefined) return ctx.chrome.tabs.group({ groupId: existing, tabIds: [tabId] });
  const groupId = await ctx.chrome.tabs.group({ tabIds: [tabId], createProperties: { windowId } });
  await ctx.chrome.tabGroups.update(groupId, { title: groupTitle(look), color: look.color, collapsed: false });
  return groupId;
}

/**
 * A task group's title: the task's label, and protocol.DeveloperMarker
 * after it once the task used Developer mode (spec 000: Developer mode
 * "is visibly marked on a task").
 */
export function groupTitle(look: TaskLook): string {
  return look.developer === true ? look.label + DeveloperMarker : look.label;
}

/**
 * Marks the task as having used Developer mode: its look (kept, so later
 * groups get the marker: joinTaskGroup) and the titles of its groups that
 * still look like its own. Run before every Developer-mode command, so a
 * group whose earlier retitling failed is marked too.
 */
export async function markDeveloper(ctx: GroupEnv, taskId: string): Promise<void> {
  const record = ctx.ownership.task(taskId);
  if (record === undefined) return;
  if (record.look.developer !== true) {
    record.look = { ...record.look, developer: true };
    await ctx.ownership.persist();
  }
  const title = groupTitle(record.look);
  for (const groupId of taskGroups(record)) {
    const group = await ctx.chrome.tabGroups.get(groupId);
    if (group === undefined || group.title === title || !(await isTaskGroup(ctx, record.look, groupId))) continue;
    await ctx.chrome.tabGroups.retitle(groupId, title).catch((e: unknown) => ctx.log.warn(`marking group ${groupId} of task ${taskId}: ${errorText(e)}`));
  }
}

/** The groups a task's record puts its tabs in. */
export function taskGroups(record: TaskRecord): Set<number> {
  return new Set([...record.tabs.values()].map((t) => t.groupId));
}

/**
 * Whether Chrome's group still looks as joinTaskGroup made it for the
 * task (its title and colour): the evidence that a recorded group id is
 * the task's, and not a group of a later browser session that has the id
 * or one the user has made their own since. The title may carry the
 * Developer-mode marker or not: a group made before the task's first
 * Developer-mode call is retitled by markDeveloper, and one whose
 * retitling has not happened (the worker stopped in between) is still
 * the task's.
 */
export async function isTaskGroup(ctx: GroupEnv, look: TaskLook, groupId: number): Promise<boolean> {
  const group = await ctx.chrome.tabGroups.get(groupId);
  const titled = group?.title === look.label || group?.title === look.label + DeveloperMarker;
  return group !== undefined && titled && group.color === look.color;
}

/**
 * Ungroups every tab in the record's groups that no task owns: a tab the
 * user dragged in, or one a worker that died mid-open grouped and never
 * recorded. They are released to the user, never closed and never adopted
 * (spec 001: "Manual grouping does not adopt a tab"), so a task's group
 * holds only the task's own tabs and a finished task leaves no group
 * behind. Chrome removes a group when its last tab leaves it. A group
 * whose title or colour is not the task's is left alone (isTaskGroup).
 */
export async function releaseStrays(ctx: GroupEnv, record: TaskRecord): Promise<void> {
  for (const groupId of taskGroups(record)) {
    // Chrome removes a group when its last tab leaves it: a finish that
    // released every tab finds none, and has nothing to tell.
    if ((await ctx.chrome.tabGroups.get(groupId)) === undefined) continue;
    if (!(await isTaskGroup(ctx, record.look, groupId))) {
      ctx.log.warn(`group ${groupId} does not look like task ${record.look.task_id}'s: its other tabs are left alone`);
      continue;
    }
    for (const tab of await ctx.chrome.tabs.inGroup(groupId)) {
      if (ctx.ownership.owner(tab.id) !== undefined) continue;
      await ctx.chrome.tabs.ungroup(tab.id).catch((e: unknown) => ctx.log.warn(`ungroup ${tab.id} from task group ${groupId}: ${errorText(e)}`));
    }
  }
}
