// The host's "adopt": the third ownership path. Source of truth: spec 001
// (the user permits browser_open with mode "adopt_active" for the
// currently active tab), issue 4 and DESIGN.md "Adoption request". The tab
// is the user's: it is never closed, not on a grouping failure and not
// when the task finishes.
import { CodeChromeError, CodeGroupFailed, CodeNeedsUser, CodeNotOwned, OutcomeNotStarted } from "../../protocol/generated";
import type { ExtAdoptParams, ExtOpenResult } from "../../protocol/generated";
import type { Tab } from "../../chrome/api";
import type { HasAdoptions, HasChrome, HasLog, HasOwnership, HasPause } from "../capabilities";
import type { HasOrigins } from "../context";
import { extTab } from "../tabs/ext-tab";
import { Failure, failure } from "../native/failure";
import { errorText } from "../log";
import { pausedFailure, pauseRefusal } from "../pause/pause";
import { joinTaskGroup } from "../tabs/task-group";
import { shownOrigin } from "../tabs/shown-origin";

export async function adopt(ctx: HasChrome & HasOwnership & HasPause & HasAdoptions & HasOrigins & HasLog, p: ExtAdoptParams): Promise<ExtOpenResult> {
  const tab = await activeTab(ctx);
  const owner = ctx.ownership.owner(tab.id);
  if (owner !== undefined && owner.taskId === p.task.task_id) return { tab: extTab(tab, owner.tab.revision) };
  if (owner !== undefined) {
    throw new Failure(CodeNotOwned, OutcomeNotStarted, "the active tab belongs to another task", "Ask the user to switch to the tab they want this task to have, then retry.");
  }
  // Checked in the same turn as the request is put before the user: a
  // Pause that began while the active tab was read ends requests already
  // asked (pause.ts), so none can be left waiting behind it.
  if (ctx.pause.paused) throw pauseRefusal(ctx.pause.reason);
  const answer = await ctx.adoptions.ask(
    { taskLabel: p.task.label, taskColor: p.task.color, tabId: tab.id, title: tab.title ?? "", origin: shownOrigin(tab) },
    p.timeout_ms,
  );
  // A Pause ends the request as paused, not needs_user: the user did not
  // refuse it, and asking again is no use until they resume (spec 001:
  // Pause rejects waiting work as not started).
  if (answer === "cancelled") throw pausedFailure("the request to adopt the active tab ended: the user paused AgentTab");
  if (answer !== "allow") {
    const why = answer === "deny" ? "the user denied it" : `no answer within ${p.timeout_ms} ms`;
    throw failure(CodeNeedsUser, `the request to adopt the active tab was not allowed: ${why}`);
  }
  // The user answered about this tab; it must still be there and nobody's.
  const now = await ctx.chrome.tabs.get(tab.id);
  if (now === undefined || ctx.ownership.owner(tab.id) !== undefined) {
    throw failure(CodeNeedsUser, "the tab the user allowed was closed or taken in the meantime");
  }
  let groupId: number;
  try {
    groupId = await joinTaskGroup(ctx, p.task, tab.id, now.windowId);
  } catch (e) {
    throw failure(CodeGroupFailed, `Chrome could not put the tab in the task's group (${errorText(e)}); it stays the user's`);
  }
  const owned = ctx.ownership.add(p.task, tab.id, groupId, now.windowId, "adopted");
  await ctx.ownership.persist();
  // Guarded from now on like every owned tab (origin-guard.ts).
  await ctx.origins.arm(tab.id);
  const grouped = (await ctx.chrome.tabs.get(tab.id)) ?? now;
  return { tab: extTab(grouped, owned.revision) };
}

async function activeTab(ctx: HasChrome): Promise<Tab> {
  const windowId = await ctx.chrome.windows.lastFocusedNormal();
  const tab = windowId === undefined ? undefined : await ctx.chrome.tabs.activeIn(windowId);
  if (tab === undefined) {
    throw new Failure(CodeChromeError, OutcomeNotStarted, "there is no active tab in a normal browser window", "Ask the user to open the page in Chrome, then retry.");
  }
  return tab;
}
