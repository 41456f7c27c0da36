// What every page-work request checks first, and how the debugger's
// failures reach the agent. Source of truth: issue 3 and spec 000: the
// tab must be owned by the task and still in its group (not_owned), and
// restricted surfaces fail page work with browser_restricted_origin before
// any script or debugger call.
import {
  CodeBrowserRestrictedOrigin,
  CodeDebuggerUnavailable,
  CodeDialogOpen,
  CodeLocalFileDenied,
  CodeNotOwned,
  CodeSnapshotFailed,
  OutcomeNotStarted,
  RevokeClosed,
  RouteTabOnly,
} from "../../protocol/generated";
import type { DialogInfo, ErrorCode, Outcome } from "../../protocol/generated";
import type { Tab } from "../../chrome/api";
import { FrameGone } from "../agent-client/errors";
import { CommandTimeout, DebuggerDetached, DialogOpened } from "../cdp/session";
import type { HasChrome, HasNotices, HasOwnership, Notifies } from "../capabilities";
import type { HasChallenges } from "../challenges/challenges";
import type { HasOrigins, HasPages } from "../context";
import { refuseWhileHandedOff } from "../notices/blackout";
import { lossReason } from "../tabs/ext-tab";
import { Failure, failure } from "../native/failure";
import { errorText } from "../log";
import type { OwnedTab } from "../tabs/ownership";
import { revoke } from "../tabs/revoke";
import { routeOf } from "./route";

export interface OwnedPage {
  owned: OwnedTab;
  tab: Tab;
  /** The committed URL, or the one being opened before the first commit. */
  url: string;
}

export function notOwned(): Failure {
  return failure(CodeNotOwned, "the task does not own this tab (it was closed, or moved out of the task's group)");
}

/** The tab, read from Chrome, when taskId owns it and it is still in its group; else not_owned (revoking a lost tab). */
export async function ownedPage(ctx: HasChrome & HasOwnership & HasPages & HasChallenges & Notifies, taskId: string, tabId: number): Promise<OwnedPage> {
  const owner = ctx.ownership.owner(tabId);
  if (owner?.taskId !== taskId) throw notOwned();
  const tab = await ctx.chrome.tabs.get(tabId);
  const lost = lossReason(tab, owner.tab.groupId);
  if (tab === undefined || lost !== undefined) {
    await revoke(ctx, tabId, lost ?? RevokeClosed, "event");
    throw notOwned();
  }
  return { owned: owner.tab, tab, url: tab.url || tab.pendingUrl || "" };
}

/**
 * Admits page work (snapshot, element steps, page-content waits, commit),
 * or refuses it: on a restricted surface; on a tab that shows a local file
 * unless every file its page loaded was checked (issue 9, origin-guard.ts
 * unreadableFile): without admitted folders the guard takes such a tab
 * back, and no read may come in between; with them, a page that loaded
 * without the guard's debugger (the scripting route) may hold any file;
 * and while the human is on the tab for a handoff (notices/blackout.ts).
 * Async (the blackout reads the user's view), and named apart from the
 * synchronous check it replaced so that no caller forgets to await it.
 */
export async function admitPageWork(ctx: HasOrigins & HasChrome & HasNotices, tabId: number, url: string): Promise<void> {
  const unreadable = ctx.origins.unreadableFile(tabId, url);
  if (unreadable !== undefined) throw failure(CodeLocalFileDenied, unreadable);
  if (routeOf(url) === RouteTabOnly) throw failure(CodeBrowserRestrictedOrigin, "Chrome does not let extensions read or drive this browser-owned page");
  await refuseWhileHandedOff(ctx, tabId, "AgentTab does not read or drive it meanwhile");
}

export function dialogFailure(d: DialogInfo, outcome: Outcome = OutcomeNotStarted): Failure {
  return failure(CodeDialogOpen, `a JavaScript ${d.type} dialog is open: ${JSON.stringify(d.message)}; the page is blocked until it is answered`, outcome);
}

/**
 * A failure of page work that read the page (snapshot, wait): nothing was
 * changed, so the outcome is not_started whatever went wrong.
 */
export function readFailure(e: unknown, code: ErrorCode = CodeSnapshotFailed): Failure {
  if (e instanceof Failure) return e;
  if (e instanceof DialogOpened) return dialogFailure(e.dialog);
  if (e instanceof DebuggerDetached) {
    return failure(CodeDebuggerUnavailable, errorText(e));
  }
  if (e instanceof FrameGone) {
    return new Failure(code, OutcomeNotStarted, "the page navigated while AgentTab read it", "Retry once the page has loaded (browser_wait until load).");
  }
  if (e instanceof CommandTimeout) {
    return new Failure(code, OutcomeNotStarted, `the page did not answer in time (${e.message})`, "Retry; if the page stays busy, reload it.");
  }
  return new Failure(code, OutcomeNotStarted, `AgentTab could not read the page: ${errorText(e)}`, "Retry; if it keeps failing, reload the page.");
}
