// The two waits only the debugger can serve. Source of truth: issue 5
// (network idle "from the debugger's network events"; downloads with
// "exact attribution ... through debugger events") and spec 000 (work only
// the debugger can do fails debugger_unavailable on the scripting route).
import type { Context } from "./context";
import type { DownloadStart } from "./downloads";
import { downloadInfo, itemOf, RECENT_MS } from "./downloads";
import type { Page } from "./page-tab";
import type { Seen } from "./wait-seen";


/**
 * Holds once none of the tab's requests has been in flight for idleMs
 * (counted since the attach: cdp/network.ts).
 */
export function networkIdleProbe(page: Page, idleMs: number): () => Promise<Seen> {
  return async () => {
    const { inflight, quietMs } = page.session.network.state();
    if (inflight > 0) return { ok: false, seen: `${inflight} request${inflight === 1 ? "" : "s"} in flight` };
    return { ok: quietMs >= idleMs, seen: `no request in flight for ${quietMs} ms` };
  };
}

/**
 * Holds once a download this tab started (since shortly before the wait)
 * has finished in Chrome's download list, complete or interrupted.
 */
export function downloadProbe(ctx: Context, tabId: number, startedAt: number): () => Promise<Seen> {
  const log = ctx.pages.downloads;
  let start: DownloadStart | undefined;
  let id: number | undefined;
  return async () => {
    start ??= log.take(tabId, startedAt - RECENT_MS);
    if (start === undefined) return { ok: false, seen: "no download started by this tab" };
    const item = id === undefined ? await itemOf(ctx, start, log.claimed) : (await ctx.chrome.downloads.search({ id }))[0];
    if (item === undefined) return { ok: false, seen: `the page started downloading ${start.suggestedName || start.url}` };
    if (id === undefined) {
      // Claimed only when it cannot be another tab's (itemOf: unique, or of
      // the size this tab's own events reported).
      id = item.id;
      log.claimed.add(id);
    }
    const download = downloadInfo(item, start.suggestedName);
    return { ok: item.state !== "in_progress", seen: `${download.file_name}: ${item.state}`, download };
  };
}
