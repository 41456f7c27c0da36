// The handoff blackout. Source of truth: issue 12 (the lead's design):
// while a tab has an open notice AND it is the active tab of the focused
// window, the human is on it, so AgentTab neither observes nor drives its
// page: page work (snapshot, element steps, page-content waits, whose
// every poll rechecks, commit) fails handoff_in_progress, not started.
// Tab-lifecycle steps and browser_handoff's request and status still
// work; its resolve and dismiss wait until the user has left the tab (the
// agent cannot have verified the page before). A notice's expiry retires
// only its reminder (notices.ts): the blackout lasts while it is open.
import { CodeHandoffInProgress } from "../../protocol/generated";
import type { HasChrome, HasNotices } from "../capabilities";
import { failure } from "../native/failure";

/** The human is on the tab: it has an open notice, and is the active tab of the focused window. */
export async function handedOff(ctx: HasChrome & HasNotices, tabId: number): Promise<boolean> {
  if (!ctx.notices.openFor(tabId)) return false;
  const tab = await ctx.chrome.tabs.get(tabId);
  if (tab === undefined || !tab.active) return false;
  // The window with the OS focus (windows.getLastFocused().focused, which
  // is what chrome.windows.get(tab.windowId).focused reports for it).
  return (await ctx.chrome.userView.focusedWindow()) === tab.windowId;
}

/** Throws handoff_in_progress (not_started) while the human is on the tab; meanwhile says what AgentTab holds back. */
export async function refuseWhileHandedOff(ctx: HasChrome & HasNotices, tabId: number, meanwhile: string): Promise<void> {
  if (await handedOff(ctx, tabId)) {
    throw failure(CodeHandoffInProgress, `the user is on this tab for the handoff you requested (its notice is open and it is the active tab of the focused window); ${meanwhile}`);
  }
}
