// Reading an owned tab back from Chrome.
import { NO_GROUP } from "../../chrome/api";
import type { Tab } from "../../chrome/api";
import { RevokeClosed, RevokeMovedOut, RevokeUngrouped } from "../../protocol/generated";
import type { ExtTab, RevokeReason } from "../../protocol/generated";
import { routeOf } from "../pagework/route";

export function extTab(tab: Tab, revision: number): ExtTab {
  // tab.url stays empty until the first navigation commits; until then
  // pendingUrl is the page being opened.
  const url = tab.url || tab.pendingUrl || "";
  return {
    tab_id: tab.id,
    window_id: tab.windowId,
    group_id: tab.groupId,
    url,
    title: tab.title ?? "",
    route: routeOf(url),
    revision,
    loading: tab.status === "loading",
  };
}

/**
 * Why a tab recorded in groupId is no longer owned, or undefined while it is
 * still in that group (spec 001: closing, ungrouping or moving an owned tab
 * out of its task group revokes it; its place inside the group does not
 * matter).
 */
export function lossReason(tab: Tab | undefined, groupId: number): RevokeReason | undefined {
  if (tab === undefined) return RevokeClosed;
  if (tab.groupId === groupId) return undefined;
  return tab.groupId === NO_GROUP ? RevokeUngrouped : RevokeMovedOut;
}
