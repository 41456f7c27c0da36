// The host's "open": create one owned tab. Source of truth: spec 000/001
// ("A grouping failure rolls creation or adoption back rather than
// retaining invisible ownership"; "placement: new_window ... the task must
// own no tabs, the window is created unfocused in normal state") and
// DESIGN.md "Ownership" and "Default window".
import {
  CodeChromeError,
  CodeGroupFailed,
  CodeNewWindowNotEligible,
  CodeNotOwned,
  OutcomeDispatched,
  OutcomeNotStarted,
  PlacementNewWindow,
  RevokeInconsistent,
} from "../protocol/generated";
import type { ExtOpenParams, ExtOpenResult } from "../protocol/generated";
import type { Tab } from "../chrome/api";
import type { Context } from "./context";
import { extTab, lossReason } from "./ext-tab";
import { Failure } from "./failure";
import { waitForLoad } from "./load-wait";
import { errorText } from "./log";
import { defaultWindow } from "./placement";
import { revoke } from "./revoke";
import { joinTaskGroup } from "./task-group";

export async function open(ctx: Context, p: ExtOpenParams): Promise<ExtOpenResult> {
  const taskId = p.task.task_id;
  // The host checks this too; the extension decides from its own record,
  // because a client's claim cannot authorize a window (spec 000).
  if (p.placement === PlacementNewWindow && (ctx.ownership.task(taskId)?.tabs.size ?? 0) > 0) {
    throw new Failure(
      CodeNewWindowNotEligible,
      OutcomeNotStarted,
      "placement new_window is only accepted while the task owns no tabs",
      "Open the page with the default placement; it goes to the window of the task's most recent tab.",
    );
  }
  const { tab, windowId } = await create(ctx, p);
  const groupId = await group(ctx, p, tab.id, windowId);
  // Recorded only now: until the tab is grouped nobody owns it, so Chrome's
  // events for the tab being created are ignored by the watchers.
  ctx.ownership.add(p.task, tab.id, groupId, windowId);
  await ctx.ownership.persist();

  await waitForLoad(ctx.chrome, ctx.clock, tab.id, p.load_wait_ms);
  const now = await ctx.chrome.tabs.get(tab.id);
  const owner = ctx.ownership.owner(tab.id);
  const lost = lossReason(now, groupId);
  if (now === undefined || owner?.taskId !== taskId || lost !== undefined) {
    await revoke(ctx, tab.id, lost ?? RevokeInconsistent, "answer");
    throw new Failure(
      CodeNotOwned,
      OutcomeDispatched,
      "the tab was opened, but it was closed or moved out of the task's group before it could be reported",
      "The user took the tab; open the page again if the task still needs it.",
    );
  }
  return { tab: extTab(now, owner.tab.revision) };
}

async function create(ctx: Context, p: ExtOpenParams): Promise<{ tab: Tab; windowId: number }> {
  try {
    const windowId = p.placement === PlacementNewWindow ? undefined : await defaultWindow(ctx.chrome, ctx.ownership, p.task.task_id);
    if (windowId === undefined) {
      const w = await ctx.chrome.windows.create({ url: p.url, focused: false, state: "normal" });
      return { tab: w.tab, windowId: w.id };
    }
    const tab = await ctx.chrome.tabs.create({ url: p.url, windowId, active: false });
    return { tab, windowId: tab.windowId };
  } catch (e) {
    throw new Failure(
      CodeChromeError,
      OutcomeNotStarted,
      `Chrome did not open the tab: ${errorText(e)}`,
      "Retry the open; if Chrome keeps refusing, check that a normal browser window can be opened.",
    );
  }
}

// On a grouping failure only the tab created just now is closed (DESIGN.md
// "Ownership": only tabs AgentTab created itself are ever closed on a
// grouping failure); with new_window that also closes its window.
async function group(ctx: Context, p: ExtOpenParams, tabId: number, windowId: number): Promise<number> {
  try {
    return await joinTaskGroup(ctx, p.task, tabId, windowId);
  } catch (e) {
    await ctx.chrome.tabs.remove(tabId).catch((r: unknown) => ctx.log.warn(`closing tab ${tabId} after a grouping failure: ${errorText(r)}`));
    throw new Failure(
      CodeGroupFailed,
      OutcomeNotStarted,
      `Chrome could not put the new tab in the task's group (${errorText(e)}); the tab was closed again`,
      "Retry the open. AgentTab never keeps a tab it cannot show in the task's group.",
    );
  }
}
