// Keeps the notices store in step with the tabs. A closed tab's notices
// go (spec 001: one notice per task tab, and the tab is gone). A tab that
// left its task's group is revoked by watch-ownership.ts; its notices then
// count as gone at once (Notices reads ownership), and the badge is
// recounted once that revocation has had time to land.
import type { HasChrome, HasClock, HasLog, HasNotices } from "../capabilities";
import { whenReady } from "../when-ready";

/**
 * How long after Chrome's group or window event the badge is recounted:
 * the revocation reads the tab back from Chrome first (watch-ownership.ts).
 */
const RECOUNT_MS = 500;

export function watchNotices(ctx: HasChrome & HasNotices & HasClock & HasLog, ready: Promise<void>): void {
  ctx.chrome.tabs.onRemoved((tabId) => whenReady(ready, ctx.log, "notices: tabs.onRemoved", () => ctx.notices.dropTab(tabId)));
  const recount = (tabId: number): void =>
    whenReady(ready, ctx.log, "notices: recount", async () => {
      if (ctx.notices.tracks(tabId)) ctx.clock.after(RECOUNT_MS, () => ctx.notices.refresh());
    });
  ctx.chrome.tabs.onUpdated((tabId, change) => {
    if (change.groupId !== undefined) recount(tabId);
  });
  ctx.chrome.tabs.onAttached((tabId) => recount(tabId));
}
