// The two waits only the debugger can serve. Source of truth: issue 5
// (network idle "from the debugger's network events"; downloads with
// "exact attribution ... through debugger events") and spec 000 (work only
// the debugger can do fails debugger_unavailable on the scripting route).
import type { DownloadLog, TabDownload } from "../downloads/downloads";
import { downloadInfo, finished, RECENT_MS } from "../downloads/downloads";
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
 * has ended, complete or canceled, as the tab's own events said (downloads.ts).
 */
export function downloadProbe(log: DownloadLog, tabId: number, startedAt: number): () => Promise<Seen> {
  let start: TabDownload | undefined;
  return async () => {
    start ??= log.take(tabId, startedAt - RECENT_MS);
    if (start === undefined) return { ok: false, seen: "no download started by this tab" };
    const download = downloadInfo(start);
    const size = start.totalBytes > 0 ? ` of ${start.totalBytes}` : "";
    return { ok: finished(start), seen: `${download.file_name || download.url}: ${download.state}, ${download.bytes}${size} bytes`, download };
  };
}
