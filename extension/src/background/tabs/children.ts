// Tabs that the pages of owned tabs open. Source of truth: spec 001 (a tab
// becomes owned when "Chrome reports a child tab whose opener is already
// owned"; "A child-popup grouping race does not give AgentTab authority to
// close a user tab") and DESIGN.md "Ownership" (the child is moved into the
// opener's task group; if Chrome cannot group it, it stays open and
// unowned and the step reports child_not_owned).
//
// Two ways in: Chrome reports a child (tabs.onCreated with an owned
// openerTabId, or webNavigation.onCreatedNavigationTarget, which also
// names the source of a noopener popup), or the window.open trap of a
// gesture asks the worker to open one (act/open-trap.ts). Either way the
// tab's owner learns of it through the "child" event, and the step that
// caused it lists it.
//
// A popup toward an origin the managed origin policy refuses is not taken
// into the task (DESIGN.md "Origin policy": child tabs are page-started
// navigations): the trap's request is not opened at all, and a tab Chrome
// opened stays the user's; either way the step lists it with
// origin_policy_denied.
import { CodeChildNotOwned, EventChild, OutcomeDispatched } from "../../protocol/generated";
import type { ChildNotice, Error as ProtocolError, TaskLook } from "../../protocol/generated";
import type { Notifies } from "../capabilities";
import type { Clock } from "../clock";
import { extTab } from "./ext-tab";
import type { FocusGuard } from "./focus-guard";
import { failure } from "../native/failure";
import { errorText } from "../log";
import type { Log } from "../log";
import type { OriginGuard } from "../origins/origin-guard";
import { isLocalFile, isWeb } from "../origins/origins";
import { joinTaskGroup } from "./task-group";
import type { GroupEnv } from "./task-group";
import { whenReady } from "../when-ready";

/** A tab a page opened, as a step reports it. */
export interface ChildReport {
  tab_id: number;
  url: string;
  owned: boolean;
  error?: ProtocolError;
}

/** How long a step waits for Chrome to finish reporting its popups. */
const SETTLE_MS = 3_000;

/** Collects the popups of one opener while a step runs. */
export class ChildWatch {
  readonly reports: ChildReport[] = [];
  readonly pending = new Set<Promise<void>>();

  constructor(private readonly stopWatching: () => void) {}

  /** Stops watching once the popups being taken in are settled (bounded); answers them. */
  async stop(clock: Clock): Promise<ChildReport[]> {
    if (this.pending.size > 0) {
      let cancel = (): void => undefined;
      const timeout = new Promise<void>((resolve) => (cancel = clock.after(SETTLE_MS, resolve)));
      await Promise.race([Promise.allSettled([...this.pending]), timeout]);
      cancel();
    }
    this.stopWatching();
    return this.reports;
  }
}

/**
 * What taking a child uses of the worker's Context. The children and the
 * origin guard are named here, not by context.ts's HasChildren and
 * HasOrigins: context.ts imports this module (issue 10: no import circles).
 */
export type ChildEnv = GroupEnv & Notifies & { readonly children: Children; readonly origins: OriginGuard };

/** The popup registry: which steps are watching which opener. */
export class Children {
  private readonly watches = new Map<number, Set<ChildWatch>>();
  /** Children already handled, so that Chrome's two reports take a tab in once. */
  private readonly seen = new Set<number>();

  /**
   * focus gives back the user's tab and window when Chrome activates a
   * child, or focuses its window, for a task (focus-guard.ts); unit tests
   * may leave it out.
   */
  constructor(
    private readonly log: Log,
    readonly focus?: FocusGuard,
  ) {}

  watch(openerId: number): ChildWatch {
    const set = this.watches.get(openerId) ?? new Set<ChildWatch>();
    this.watches.set(openerId, set);
    const w: ChildWatch = new ChildWatch(() => {
      set.delete(w);
      if (set.size === 0) this.watches.delete(openerId);
    });
    set.add(w);
    return w;
  }

  /** Runs the taking-in of a popup of opener, and hands its report to the steps watching. */
  track(openerId: number, work: Promise<ChildReport | undefined>): void {
    const watching = [...(this.watches.get(openerId) ?? [])];
    const done = work.then(
      (r) => {
        if (r === undefined) return;
        for (const w of watching) w.reports.push(r);
      },
      (e: unknown) => this.log.warn(`a popup of tab ${openerId}: ${errorText(e)}`),
    );
    for (const w of watching) {
      w.pending.add(done);
      void done.then(() => w.pending.delete(done));
    }
  }

  /** true the first time a child tab is reported. */
  first(childId: number): boolean {
    if (this.seen.has(childId)) return false;
    this.seen.add(childId);
    return true;
  }

  forget(tabId: number): void {
    this.seen.delete(tabId);
  }
}

export function notOwned(tabId: number, url: string, why: string): ChildReport {
  const f = failure(CodeChildNotOwned, `the page opened ${url || "a tab"}, but ${why}; it stays open and belongs to the user`);
  return { tab_id: tabId, url, owned: false, error: f.detail };
}

/**
 * Records a grouped popup as the task's and tells the host. A child Chrome
 * reports is taken in outside the task's queue (the step that caused it
 * holds the queue while it waits for its popups), so the task may have
 * finished, or reconciliation released the child from the group, while it
 * was being grouped: then it is let go again instead of re-creating the
 * task's record and group (made: AgentTab created the tab, so it closes it;
 * Chrome's child is ungrouped and stays the user's). Nothing is awaited
 * between this check and the record.
 */
async function own(ctx: ChildEnv, look: TaskLook, openerId: number, tabId: number, groupId: number, made: boolean): Promise<ChildReport> {
  const tab = await ctx.chrome.tabs.get(tabId);
  if (tab === undefined) return notOwned(tabId, "", "it was closed before it could be taken into the task");
  const url = tab.url || tab.pendingUrl || "";
  if (ctx.ownership.task(look.task_id) === undefined) {
    if (made) await ctx.chrome.tabs.remove(tabId).catch((e: unknown) => ctx.log.warn(`closing popup ${tabId} of a finished task: ${errorText(e)}`));
    else if (tab.groupId === groupId) await ctx.chrome.tabs.ungroup(tabId).catch((e: unknown) => ctx.log.warn(`ungroup ${tabId} of a finished task: ${errorText(e)}`));
    return notOwned(made ? -1 : tabId, url, made ? "its task ended while it was being opened, so it was closed again" : "its task ended while it was being taken in");
  }
  if (tab.groupId !== groupId) return notOwned(made ? -1 : tabId, url, "it left the task's group before it could be taken in");
  const owned = ctx.ownership.add(look, tabId, groupId, tab.windowId, "child");
  await ctx.ownership.persist();
  const notice: ChildNotice = { task_id: look.task_id, opener_tab_id: openerId, tab: extTab(tab, owned.revision) };
  ctx.notify(EventChild, notice);
  await ctx.origins.arm(tabId);
  return { tab_id: tabId, url: notice.tab.url, owned: true };
}

/**
 * Takes a tab Chrome opened for an owned opener into the opener's task
 * group. Chrome made it, so a failure leaves it open, unowned.
 */
async function takeChild(ctx: ChildEnv, openerId: number, childId: number, url: string): Promise<ChildReport | undefined> {
  const owner = ctx.ownership.owner(openerId);
  const look = owner === undefined ? undefined : ctx.ownership.task(owner.taskId)?.look;
  if (look === undefined || ctx.ownership.owner(childId) !== undefined) return undefined;
  const child = await ctx.chrome.tabs.get(childId);
  if (child === undefined) return undefined;
  // A blank child (the page fills it in later) is taken in: the guard then
  // checks where it goes.
  const target = child.pendingUrl || child.url || url;
  const refused = isWeb(target) || isLocalFile(target) ? ctx.origins.refused(target, OutcomeDispatched) : undefined;
  if (refused !== undefined) {
    return { tab_id: childId, url: target, owned: false, error: { ...refused.detail, message: `the page opened ${target}, but ${refused.detail.message}; the tab stays open and belongs to the user` } };
  }
  let groupId: number;
  try {
    groupId = await joinTaskGroup(ctx, look, childId, child.windowId);
  } catch (e) {
    return notOwned(childId, url, `Chrome could not put it in the task's group (${errorText(e)})`);
  }
  return own(ctx, look, openerId, childId, groupId, false);
}

/**
 * Opens what a gesture's window.open asked for as an inactive tab beside
 * the opener, in the task's group. AgentTab made this tab, so a grouping
 * failure closes it again.
 */
export async function openChild(ctx: ChildEnv, openerId: number, url: string): Promise<ChildReport | undefined> {
  const owner = ctx.ownership.owner(openerId);
  const look = owner === undefined ? undefined : ctx.ownership.task(owner.taskId)?.look;
  if (owner === undefined || look === undefined) return undefined;
  const refused = isWeb(url) || isLocalFile(url) ? ctx.origins.refused(url) : undefined;
  if (refused !== undefined) return { tab_id: -1, url, owned: false, error: { ...refused.detail, message: `the page asked to open ${url}, which was not opened: ${refused.detail.message}` } };
  if (!isWeb(url)) return notOwned(-1, url, "AgentTab opens only http and https popups");
  const tab = await ctx.chrome.tabs.create({ url, windowId: owner.tab.windowId, active: false });
  let groupId: number;
  try {
    groupId = await joinTaskGroup(ctx, look, tab.id, tab.windowId);
  } catch (e) {
    await ctx.chrome.tabs.remove(tab.id).catch(() => undefined);
    return notOwned(-1, url, `Chrome could not put it in the task's group (${errorText(e)}), so it was closed again`);
  }
  return own(ctx, look, openerId, tab.id, groupId, true);
}

/** Takes in the children Chrome reports for owned openers. */
export function watchChildren(ctx: ChildEnv, ready: Promise<void>): void {
  const { chrome: api, log, children } = ctx;
  const reported = (openerId: number, childId: number, url: string): void => {
    whenReady(ready, log, "a child tab", async () => {
      if (ctx.ownership.owner(openerId) === undefined || !children.first(childId)) return;
      children.track(openerId, takeChild(ctx, openerId, childId, url));
      const child = await api.tabs.get(childId);
      if (child !== undefined) children.focus?.child(childId, child.windowId);
    });
  };
  api.tabs.onCreated((tab) => {
    if (tab.openerTabId !== undefined) reported(tab.openerTabId, tab.id, tab.pendingUrl || tab.url || "");
  });
  api.webNavigation.onCreatedNavigationTarget((d) => reported(d.sourceTabId, d.tabId, d.url));
  api.tabs.onRemoved((tabId) => children.forget(tabId));
}
