// The host's "open": create one owned tab. Source of truth: spec 000/001
// ("A grouping failure rolls creation or adoption back rather than
// retaining invisible ownership"; "placement: new_window ... the task must
// own no tabs, the window is created unfocused in normal state") and
// DESIGN.md "Ownership" and "Default window".
//
// While the origin guard holds tabs (origin lists constrain navigation,
// or local folders are admitted), the tab is created blank and the guard
// attached before it is sent to the page (origin-guard.ts): the host
// checked the URL, but a server redirect of the first load, and the files
// a local page loads, are only caught by an attached guard. When the guard
// stops the load, the tab AgentTab just made is closed again and the open
// fails as the stop says (origin_policy_denied, or local_file_denied
// toward a local file). Observed in Chromium 156: the first
// navigation of a tab created at about:blank replaces that entry, so the
// tab's history holds only the page.
import {
  CodeChromeError,
  CodeGroupFailed,
  CodeNewWindowNotEligible,
  CodeNotOwned,
  OutcomeDispatched,
  OutcomeNotStarted,
  PlacementNewWindow,
  RevokeClosed,
  RevokeInconsistent,
} from "../../protocol/generated";
import type { ExtOpenParams, ExtOpenResult } from "../../protocol/generated";
import type { Tab } from "../../chrome/api";
import type { HasChrome, HasClock, HasLog, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasOrigins, HasPages } from "../context";
import { extTab, lossReason } from "../tabs/ext-tab";
import { Failure, failure } from "../native/failure";
import { waitForLoad } from "./load-wait";
import { errorText } from "../log";
import { stopFailure } from "../origins/origin-guard";
import type { OriginStop } from "../origins/origin-guard";
import { defaultWindow } from "./placement";
import { revoke } from "../tabs/revoke";
import { joinTaskGroup } from "../tabs/task-group";

/** What opening a tab uses of the worker's Context (context.ts). */
export type OpenEnv = HasChrome & HasOwnership & HasPages & HasChallenges & HasOrigins & Notifies & HasClock & HasLog;

export async function open(ctx: OpenEnv, p: ExtOpenParams): Promise<ExtOpenResult> {
  const taskId = p.task.task_id;
  // The host checks this too; the extension decides from its own record,
  // because a client's claim cannot authorize a window (spec 000).
  if (p.placement === PlacementNewWindow && (ctx.ownership.task(taskId)?.tabs.size ?? 0) > 0) {
    throw failure(CodeNewWindowNotEligible, "placement new_window is only accepted while the task owns no tabs");
  }
  const { tab, windowId } = await create(ctx, p);
  const groupId = await group(ctx, p, tab.id, windowId);
  // Recorded only now: until the tab is grouped nobody owns it, so Chrome's
  // events for the tab being created are ignored by the watchers.
  ctx.ownership.add(p.task, tab.id, groupId, windowId);
  await ctx.ownership.persist();
  let stop: OriginStop | undefined;
  try {
    stop = await load(ctx, tab.id, p);
  } catch (e) {
    await discard(ctx, tab.id);
    throw e;
  }
  if (stop !== undefined) {
    await discard(ctx, tab.id);
    // The stop's own failure: local_file_denied toward a local file.
    throw stopFailure(stop, OutcomeDispatched, `${p.url} led to ${stop.url}, which was stopped: ${stop.reason}; the tab opened for it was closed again`);
  }
  const now = await ctx.chrome.tabs.get(tab.id);
  const owner = ctx.ownership.owner(tab.id);
  const lost = lossReason(now, groupId);
  if (now === undefined || owner?.taskId !== taskId || lost !== undefined) {
    await revoke(ctx, tab.id, lost ?? RevokeInconsistent, "answer");
    throw failure(CodeNotOwned, "the tab was opened, but it was closed or moved out of the task's group before it could be reported", OutcomeDispatched);
  }
  return { tab: extTab(now, owner.tab.revision) };
}

async function create(ctx: HasChrome & HasOwnership & HasOrigins, p: ExtOpenParams): Promise<{ tab: Tab; windowId: number }> {
  try {
    const windowId = p.placement === PlacementNewWindow ? undefined : await defaultWindow(ctx.chrome, ctx.ownership, p.task.task_id);
    const url = ctx.origins.holding ? "about:blank" : p.url;
    if (windowId === undefined) {
      const w = await ctx.chrome.windows.create({ url, focused: false, state: "normal" });
      return { tab: w.tab, windowId: w.id };
    }
    const tab = await ctx.chrome.tabs.create({ url, windowId, active: false });
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

/**
 * Waits (bounded) for the page to load. Under an origin policy the blank
 * tab is guarded first and then sent to the page; a navigation the guard
 * stops ends the wait and is returned. (Observed in Chromium 156: the tab
 * of a stopped first load reports no completed status, so waiting for one
 * would take the whole bound.)
 */
async function load(ctx: HasChrome & HasOrigins & HasClock, tabId: number, p: ExtOpenParams): Promise<OriginStop | undefined> {
  if (!ctx.origins.holding) {
    await waitForLoad(ctx.chrome, ctx.clock, tabId, p.load_wait_ms);
    return undefined;
  }
  let unwatch = (): void => undefined;
  const stopped = new Promise<OriginStop>((resolve) => (unwatch = ctx.origins.onStop(tabId, resolve)));
  try {
    await ctx.origins.arm(tabId);
    await ctx.chrome.tabs.navigate(tabId, p.url).catch((e: unknown) => {
      throw new Failure(CodeChromeError, OutcomeNotStarted, `Chrome did not load ${p.url} (${errorText(e)}); the tab opened for it was closed again`, "Retry the open; check the URL.");
    });
    return await Promise.race([waitForLoad(ctx.chrome, ctx.clock, tabId, p.load_wait_ms).then(() => undefined), stopped]);
  } finally {
    unwatch();
  }
}

// Takes back a tab this open made and owns, when its page cannot be the
// answer: the record goes first, so its closing raises no revocation.
async function discard(ctx: HasChrome & HasOwnership & HasPages & HasChallenges & Notifies & HasLog, tabId: number): Promise<void> {
  await revoke(ctx, tabId, RevokeClosed, "answer");
  await ctx.chrome.tabs.remove(tabId).catch((e: unknown) => ctx.log.warn(`closing tab ${tabId} after a failed open: ${errorText(e)}`));
}

// On a grouping failure only the tab created just now is closed (DESIGN.md
// "Ownership": only tabs AgentTab created itself are ever closed on a
// grouping failure); with new_window that also closes its window.
async function group(ctx: HasChrome & HasOwnership & HasLog, p: ExtOpenParams, tabId: number, windowId: number): Promise<number> {
  try {
    return await joinTaskGroup(ctx, p.task, tabId, windowId);
  } catch (e) {
    await ctx.chrome.tabs.remove(tabId).catch((r: unknown) => ctx.log.warn(`closing tab ${tabId} after a grouping failure: ${errorText(r)}`));
    throw failure(CodeGroupFailed, `Chrome could not put the new tab in the task's group (${errorText(e)}); the tab was closed again`);
  }
}
