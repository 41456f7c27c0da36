// The handoff blackout. Source of truth: issue 12 (the lead's design):
// while a tab has an open notice AND it is the active tab of the focused
// window, the human is on it, so AgentTab neither observes nor drives its
// page: page work (snapshot, element steps, page-content waits, commit)
// fails handoff_in_progress, not started. Tab-lifecycle steps and
// browser_handoff itself still work. An expired notice is no longer open
// (its reminder retired) and blacks nothing out.
import type { HasChrome, HasNotices } from "../capabilities";

/** The human is on the tab: it has an open notice, and is the active tab of the focused window. */
export async function handedOff(ctx: HasChrome & HasNotices, tabId: number): Promise<boolean> {
  if (!ctx.notices.openFor(tabId)) return false;
  const tab = await ctx.chrome.tabs.get(tabId);
  if (tab === undefined || !tab.active) return false;
  // The window with the OS focus (windows.getLastFocused().focused, which
  // is what chrome.windows.get(tab.windowId).focused reports for it).
  return (await ctx.chrome.userView.focusedWindow()) === tab.windowId;
}
