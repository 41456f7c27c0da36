// The popup's buttons on an attention notice. Source of truth: issue 12
// and protocol/handoff.go: Open tab focuses exactly the noticed tab (its
// window's active tab, and the window focused), the only focus AgentTab
// ever causes, on the user's click, with the focus guard's allowance so
// that it is not given back; Dismiss hides the reminder only (the notice
// stays open for the agent, hidden_by_user).
import { errorText } from "../log";
import type { PopupCtx, PopupDeps } from "./env";

export async function noticeAction(ctx: PopupCtx, deps: PopupDeps, noticeId: string, action: "open_tab" | "dismiss"): Promise<void> {
  if (action === "dismiss") {
    await ctx.notices.hide(noticeId);
    return;
  }
  const notice = ctx.notices.open(noticeId);
  if (notice === undefined) return;
  const tab = await ctx.chrome.tabs.get(notice.tabId);
  if (tab === undefined) return;
  deps.focus.allowUserOpen(tab.id, tab.windowId);
  await ctx.chrome.userView.openForUser(tab.id, tab.windowId).catch((e: unknown) => ctx.log.warn(`opening tab ${tab.id} for the user: ${errorText(e)}`));
}
